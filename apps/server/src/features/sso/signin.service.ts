import type { CacheProvider } from '@node-saml/node-saml';
import { email as emailSchema } from '@parley/contract/auth';
import type { AppContext } from '../../context.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { now } from '../../lib/clock.ts';
import { randomToken, sha256Hex } from '../../lib/crypto.ts';
import { IdentityError } from '../../providers/identity/errors.ts';
import * as oidc from '../../providers/identity/oidc.ts';
import * as saml from '../../providers/identity/saml.ts';
import { createSession, externalUser, type NewSession } from '../auth/auth.service.ts';
import { joinWorkspace } from '../workspaces/members.service.ts';
import { effectivePlan } from '../workspaces/plan.ts';
import { oidcRedirectUri, spUrls } from './connections.service.ts';
import { clientSecretOf } from './secrets.ts';
import * as repo from './sso.repo.ts';

/**
 * Sign-in through a workspace's identity provider (docs/sso.md "Signing in").
 * Every refusal is an IdentityError: the route turns it into 302 /sign-in?error=sso_failed.
 */

/** How long a started sign-in may take at the provider. */
const FLOW_MS = 10 * 60_000;
const TEST_MARK = 'test';
const guard = (ctx: AppContext) => ({ allowPrivateNetworks: ctx.config.webhooks.allowPrivateNetworks });
/** The domain of an address already checked by sign-up's email schema, which has a single `@`. */
const domainOf = (email: string) => email.slice(email.indexOf('@') + 1).toLowerCase();

/**
 * Refusals the sign-in page explains in words (`reason`, apps/web SsoFailed): the provider's email
 * is not one valid address, or its domain is not one of the connection's verified domains.
 */
export type RefusalReason = 'email_invalid' | 'email_domain';
export class SignInRefused extends IdentityError {
  constructor(
    message: string,
    readonly reason: RefusalReason,
  ) {
    super(message);
  }
}

/** SAML request ids in the database, so the instance that gets the answer knows the question. */
function samlRequests(ctx: AppContext, connectionId: string, returnTo: string | null): CacheProvider {
  const key = (id: string) => `saml_${id}`;
  return {
    saveAsync: async (id, value) => {
      const at = now();
      await repo.insertFlow(ctx.db, {
        id: key(id),
        connectionId,
        returnTo,
        expiresAt: new Date(at.getTime() + FLOW_MS),
      });
      return { value, createdAt: at.getTime() };
    },
    getAsync: async (id) => {
      const flow = await repo.findLiveFlow(ctx.db, key(id), now());
      return flow && flow.connectionId === connectionId ? flow.createdAt.toISOString() : null;
    },
    removeAsync: async (id) => {
      if (id) await repo.takeFlow(ctx.db, key(id), now());
      return id;
    },
  };
}

async function usable(ctx: AppContext, connection: repo.ConnectionRow): Promise<boolean> {
  const ws = await repo.workspaceStanding(ctx.db, connection.workspaceId);
  return ws !== undefined && effectivePlan(ws) === 'enterprise';
}

const idpOf = (c: repo.ConnectionRow): saml.IdpMetadata => ({
  entityId: c.idpEntityId ?? '',
  ssoUrl: c.idpSsoUrl ?? '',
  certs: c.idpCerts ?? [],
});
const oidcClient = (ctx: AppContext, c: repo.ConnectionRow): oidc.OidcClient => ({
  metadata: c.oidcMetadata ?? {},
  clientId: c.clientId ?? '',
  clientSecret: clientSecretOf(ctx, c),
});

export type Started = { url: string; browser?: string };

/** The provider's URL for `connection`; `test` runs the sign-in without signing anyone in. */
export async function startWith(
  ctx: AppContext,
  connection: repo.ConnectionRow,
  base: string,
  test = false,
): Promise<Started> {
  const returnTo = test ? TEST_MARK : null;
  await repo.deleteExpiredFlows(ctx.db, now());
  if (connection.type === 'saml') {
    const sp = spUrls(base, connection.id);
    const url = await saml.authnRequestUrl(
      idpOf(connection),
      sp,
      samlRequests(ctx, connection.id, returnTo),
      '',
    );
    return { url };
  }
  const checks = oidc.newChecks();
  const browser = randomToken('', 24);
  await repo.insertFlow(ctx.db, {
    id: checks.state,
    connectionId: connection.id,
    browserHash: sha256Hex(browser),
    codeVerifier: checks.codeVerifier,
    nonce: checks.nonce,
    returnTo,
    expiresAt: new Date(now().getTime() + FLOW_MS),
  });
  const url = await oidc.authorizationUrl(
    oidcClient(ctx, connection),
    guard(ctx),
    oidcRedirectUri(base),
    checks,
  );
  return { url, browser };
}

/** "Continue with SSO": the connection whose verified domain is the email's, else 404. */
export async function start(ctx: AppContext, email: string, base: string): Promise<Started> {
  const connection = await repo.connectionForDomain(ctx.db, domainOf(email));
  if (!connection || !(await usable(ctx, connection))) throw notFound('Single sign-on for this email domain');
  try {
    return await startWith(ctx, connection, base);
  } catch (err) {
    if (err instanceof IdentityError) throw new AppError('bad_request:api', err.message);
    throw err;
  }
}

export type Completed = { kind: 'session'; session: NewSession } | { kind: 'test'; email: string };

/**
 * What a completion learnt of its flow before it may fail: `test` once the answer is known to
 * end a test sign-in, so that a refused test ends on the test's result page too.
 */
export type FlowMark = { test: boolean };

export async function completeOidc(
  ctx: AppContext,
  callbackUrl: URL,
  browser: string | undefined,
  mark: FlowMark = { test: false },
): Promise<Completed> {
  const state = callbackUrl.searchParams.get('state') ?? '';
  const flow = state ? await repo.takeFlow(ctx.db, state, now()) : undefined;
  if (!flow?.codeVerifier || !flow.nonce) throw new IdentityError('Unknown or expired state');
  mark.test = flow.returnTo === TEST_MARK;
  // Bound to the browser that started it (docs/sso.md): another browser's callback signs no one in.
  if (!browser || flow.browserHash !== sha256Hex(browser))
    throw new IdentityError('Started in another browser');
  const connection = await repo.findConnectionById(ctx.db, flow.connectionId);
  if (connection?.type !== 'oidc') throw new IdentityError('Connection gone');
  const identity = await oidc.redeem(oidcClient(ctx, connection), guard(ctx), callbackUrl, {
    state,
    nonce: flow.nonce,
    codeVerifier: flow.codeVerifier,
  });
  if (!identity.email || !identity.emailVerified)
    throw new IdentityError('No verified email in the ID token');
  return finish(ctx, connection, identity.email, identity.name, mark.test);
}

export async function completeSaml(
  ctx: AppContext,
  connectionId: string,
  samlResponse: string,
  base: string,
  mark: FlowMark = { test: false },
): Promise<Completed> {
  const connection = await repo.findConnectionById(ctx.db, connectionId);
  if (connection?.type !== 'saml') throw new IdentityError('Unknown connection');
  const requests = samlRequests(ctx, connection.id, null);
  // node-saml looks up InResponseTo before it checks the signature.
  const checked: CacheProvider = {
    ...requests,
    getAsync: async (id) => {
      const flow = await repo.findLiveFlow(ctx.db, `saml_${id}`, now());
      mark.test = flow?.connectionId === connection.id && flow.returnTo === TEST_MARK;
      return requests.getAsync(id);
    },
  };
  const identity = await saml.validateResponse(
    idpOf(connection),
    spUrls(base, connection.id),
    checked,
    samlResponse,
  );
  const fresh = await repo.rememberAssertion(
    ctx.db,
    { connectionId: connection.id, assertionId: identity.assertionId, notOnOrAfter: identity.notOnOrAfter },
    now(),
  );
  if (!fresh) throw new IdentityError('Assertion seen before');
  if (!identity.email) throw new IdentityError('No email in the assertion');
  return finish(ctx, connection, identity.email, identity.name, mark.test);
}

/**
 * The person behind a checked answer: their email must be one address by sign-up's rules (a
 * signed answer is still the provider's word: `a@b.test@c.test` or markup is no address), and its
 * domain, after the single `@`, exactly one of the connection's verified domains; a new email
 * becomes a user without a password; someone not a member joins with the default role
 * (`member.joined`), unless they left or were removed: then an invitation brings them back.
 */
async function finish(
  ctx: AppContext,
  connection: repo.ConnectionRow,
  rawEmail: string,
  name: string | undefined,
  test: boolean,
): Promise<Completed> {
  const parsed = emailSchema.safeParse(rawEmail);
  if (!parsed.success) {
    const shown = JSON.stringify(rawEmail.slice(0, 320));
    throw new SignInRefused(`The provider's email ${shown} is not a valid address`, 'email_invalid');
  }
  const email = parsed.data;
  const domains = await repo.domainsOf(ctx.db, connection.workspaceId, [connection.id]);
  if (!domains.some((d) => d.verifiedAt && d.domain === domainOf(email))) {
    throw new SignInRefused(`${email} is outside the connection's verified domains`, 'email_domain');
  }
  if (!(await usable(ctx, connection))) throw new IdentityError('The workspace is not on Enterprise');
  if (test) return { kind: 'test', email };
  const user = await externalUser(ctx, email, (name ?? email.split('@')[0] ?? email).slice(0, 100));
  const workspaceId = connection.workspaceId;
  if (!(await repo.membershipOf(ctx.db, workspaceId, user.id))) {
    if (await repo.wasRemoved(ctx.db, workspaceId, user.id))
      throw new IdentityError('Removed from the workspace');
    const role = connection.defaultRole;
    await ctx.db.transaction((tx) =>
      joinWorkspace(tx, { workspaceId, userId: user.id, role, joinedAt: now() }),
    );
  }
  return { kind: 'session', session: await createSession(ctx, user.id) };
}

/**
 * Password sign-in with "SSO required" (docs/sso.md): refused for members whose email is in a
 * requiring connection's verified domains; the workspace's owner keeps it (the recovery path).
 */
export async function refusePasswordWhenSsoRequired(ctx: AppContext, user: { id: string; email: string }) {
  const rows = await repo.requiringSsoFor(ctx.db, user.id, domainOf(user.email));
  if (rows.some((r) => r.role !== 'owner')) {
    throw new AppError('unauthorized:api', 'Your workspace requires single sign-on: continue with SSO', {
      sso: true,
    });
  }
}
