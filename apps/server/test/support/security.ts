import type { Scope } from '@parley/contract/scopes';
import { SCOPES } from '@parley/contract/scopes';
import type { InjectOptions } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/db/schema/index.ts';
import type { AuthMode, PlanFeature } from '../../src/http/actor.ts';
import type { TestApp } from './harness.ts';
import { recordCovered } from './security-coverage.ts';
import { expectNothingStored } from './stored-rows.ts';
import { createWorld, insertApiKey, personalToken, type World } from './world.ts';

const ROLES: Role[] = ['owner', 'admin', 'member', 'guest'];

export type SecurityTarget = {
  /** For the test names, e.g. 'PATCH /api/workspaces/:workspaceId'. */
  name: string;
  /** Which credentials the route accepts (docs/api.md "Surfaces and credentials"). */
  auth: Exclude<AuthMode, 'none'>;
  /**
   * Builds the request against `workspaceId`. `prepare` output (if any) is passed as `extra`:
   * e.g. the id of a resource created in that workspace.
   */
  request: (workspaceId: string, extra: Record<string, string>) => InjectOptions;
  /**
   * Runs once, when the suite's world is made and before any request of the suite: state every
   * route needs (e.g. a plan), kept out of the refused requests' before/after comparison.
   */
  setupWorld?: (t: TestApp, world: World) => Promise<void>;
  /** Creates the addressed resource inside `workspaceId`, acting as its owner. */
  prepare?: (t: TestApp, world: World, workspaceId: string) => Promise<Record<string, string>>;
  /** Lowest role allowed (users). Roles below it must get 403 forbidden:api. */
  minRole?: Role;
  /** Scope an API key needs (key routes). */
  scope?: Scope;
  /** Plan feature the route needs: a Free workspace must get 403 plan_upgrade_required. */
  planFeature?: PlanFeature;
  /** Statuses that count as "allowed" for the happy credential (default any 2xx). */
  allowed?: (status: number) => boolean;
  /**
   * No workspace in the path: cookie routes act on the user's own account or membership, and
   * key routes (`/api/v1/*`) on the key's own workspace.
   */
  noWorkspace?: boolean;
  /** The 401 code of the route's surface (docs/api.md "Errors": `unauthorized:chat` on the chat). */
  unauthorizedCode?: string;
  /** The 404 code when the addressed resource has its own (`not_found:chat` for a conversation). */
  notFoundCode?: string;
};

/**
 * The shared security suite (docs/architecture.md "Rules"): no credential → 401, wrong kind of credential
 * → 401, other workspace → 404, too low a role → 403, missing scope → 403, plan without the
 * feature → 403; every refused request leaves every table as it was. Every route registers itself here.
 */
export function securitySuite(getApp: () => TestApp, target: SecurityTarget) {
  const ok = target.allowed ?? ((s: number) => s >= 200 && s < 300);
  let world: World | undefined;
  const setup = async () => {
    const t = getApp();
    if (!world) {
      world = await createWorld(t);
      await target.setupWorld?.(t, world);
    }
    return { t, world };
  };
  const extra = async (t: TestApp, w: World, ws: string) => (target.prepare ? target.prepare(t, w, ws) : {});
  const reached: Array<{ method: string; url: string }> = [];
  const send = (t: TestApp, opts: InjectOptions, headers: Record<string, string>) => {
    reached.push({ method: String(opts.method ?? 'GET'), url: String(opts.url ?? '') });
    return t.request({
      ...opts,
      headers: { ...(opts.headers as Record<string, string> | undefined), ...headers },
    });
  };
  /** A request the suite expects refused: it must also leave every table as it was (stored-rows.ts). */
  const refuse = (t: TestApp, opts: InjectOptions, headers: Record<string, string>) =>
    expectNothingStored(t, () => send(t, opts, headers), `${target.name} (refused)`);

  describe(`security: ${target.name}`, () => {
    afterAll(async () => {
      if (reached.length > 0) await recordCovered(getApp(), reached);
    });

    it('401 without any credential', async () => {
      const { t, world: w } = await setup();
      const res = await refuse(t, target.request(w.ws, await extra(t, w, w.ws)), {});
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe(target.unauthorizedCode ?? 'unauthorized:api');
    });

    it('401 with an invalid or wrong kind of credential', async () => {
      const { t, world: w } = await setup();
      const req = target.request(w.ws, await extra(t, w, w.ws));
      const wrong: Record<string, string>[] = [
        { authorization: 'Bearer pat_not-a-real-token' },
        { authorization: 'Bearer wsk_live_not-a-real-key' },
        { authorization: 'Basic dXNlcjpwYXNz' },
        { cookie: 'parley.session-token=forged' },
      ];
      if (target.auth === 'session') wrong.push(await personalToken(t, w.owner));
      if (target.auth === 'session' || target.auth === 'user') {
        wrong.push(await insertApiKey(t, w.ws, [...SCOPES]));
      }
      if (target.auth === 'key') {
        wrong.push(w.owner.headers, await personalToken(t, w.owner));
      }
      for (const headers of wrong) {
        const res = await refuse(t, req, headers);
        expect(res.statusCode, `${JSON.stringify(headers)} → ${res.body}`).toBe(401);
      }
    });

    if (target.auth !== 'key') {
      it('allows the owner by cookie', async () => {
        const { t, world: w } = await setup();
        const res = await send(t, target.request(w.ws, await extra(t, w, w.ws)), w.owner.headers);
        expect(ok(res.statusCode), res.body).toBe(true);
      });

      if (!target.noWorkspace) {
        it('404 for a workspace the caller does not belong to', async () => {
          const { t, world: w } = await setup();
          const res = await refuse(t, target.request(w.ws, await extra(t, w, w.ws)), w.outsider.headers);
          expect(res.statusCode, res.body).toBe(404);
          expect(res.json().code).toBe(target.notFoundCode ?? 'not_found:api');
        });
      }

      if (target.prepare && !target.noWorkspace) {
        it("404 for another workspace's resource addressed through one's own workspace", async () => {
          const { t, world: w } = await setup();
          const foreign = await extra(t, w, w.otherWs);
          const res = await refuse(t, target.request(w.ws, foreign), w.owner.headers);
          expect(res.statusCode, res.body).toBe(404);
        });
      }

      if (target.minRole) {
        const allowedIdx = ROLES.indexOf(target.minRole);
        for (const role of ROLES.slice(allowedIdx + 1)) {
          it(`403 for a ${role}`, async () => {
            const { t, world: w } = await setup();
            const res = await refuse(t, target.request(w.ws, await extra(t, w, w.ws)), w[role].headers);
            expect(res.statusCode, res.body).toBe(403);
            expect(res.json().code).toBe('forbidden:api');
          });
        }
      }
    }

    if (target.auth === 'key' || target.auth === 'user-or-key') {
      if (!target.noWorkspace) {
        it('404 for an API key of another workspace', async () => {
          const { t, world: w } = await setup();
          const key = await insertApiKey(t, w.otherWs, [...SCOPES]);
          const res = await refuse(t, target.request(w.ws, await extra(t, w, w.ws)), key);
          expect(res.statusCode, res.body).toBe(404);
        });
      } else if (target.prepare) {
        // /api/v1 paths: the key names the workspace, so "another workspace" is another's resource.
        it("404 for another workspace's resource with one's own key", async () => {
          const { t, world: w } = await setup();
          const key = await insertApiKey(t, w.ws, [...SCOPES]);
          const res = await refuse(t, target.request(w.ws, await extra(t, w, w.otherWs)), key);
          expect(res.statusCode, res.body).toBe(404);
        });
      }

      if (target.auth === 'key') {
        it('allows a key of the workspace with every scope', async () => {
          const { t, world: w } = await setup();
          const key = await insertApiKey(t, w.ws, [...SCOPES]);
          const res = await send(t, target.request(w.ws, await extra(t, w, w.ws)), key);
          expect(ok(res.statusCode), res.body).toBe(true);
        });
      }

      if (target.scope) {
        const scope = target.scope;
        it(`403 missing_scope for a key without ${scope}`, async () => {
          const { t, world: w } = await setup();
          const key = await insertApiKey(
            t,
            w.ws,
            SCOPES.filter((s) => s !== scope),
          );
          const res = await refuse(t, target.request(w.ws, await extra(t, w, w.ws)), key);
          expect(res.statusCode, res.body).toBe(403);
          expect(res.json().code).toBe('missing_scope');
        });
        it(`allows a key with ${scope}`, async () => {
          const { t, world: w } = await setup();
          const key = await insertApiKey(t, w.ws, [scope]);
          const res = await send(t, target.request(w.ws, await extra(t, w, w.ws)), key);
          expect(ok(res.statusCode), res.body).toBe(true);
        });
      }
    }

    if (target.planFeature) {
      it(`403 plan_upgrade_required on a Free workspace (${target.planFeature})`, async () => {
        const { t, world: w } = await setup();
        const headers =
          target.auth === 'key' ? await insertApiKey(t, w.freeWs, [...SCOPES]) : w.freeOwner.headers;
        const res = await refuse(t, target.request(w.freeWs, await extra(t, w, w.freeWs)), headers);
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json().code).toBe('plan_upgrade_required');
      });
    }
  });
}
