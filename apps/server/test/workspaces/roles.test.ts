import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/db/schema/index.ts';
import { signupUser, type TestUser, uniqueEmail } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { addMember, createWorld, type World } from '../support/world.ts';
import { cloneWorld, insertInvitation } from './helpers.ts';

/**
 * The role table of docs/api.md "Roles and permissions", row by row, for the actions this feature serves.
 * Every case runs on a fresh copy of the world's workspace, so destructive ones do not interfere.
 */
let t: TestApp;
let w: World;
let target: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
  target = await signupUser(t, { name: 'Target' });
});
afterAll(() => t.close());

type Action = {
  name: string;
  allowed: Role[];
  status: number;
  request: (ws: string, extra: { invitationId: string }) => InjectOptions;
};

const ALL: Role[] = ['owner', 'admin', 'member', 'guest'];
const ws = (id: string) => `/api/workspaces/${id}`;

const actions: Action[] = [
  { name: 'view workspace', allowed: ALL, status: 200, request: (id) => ({ method: 'GET', url: ws(id) }) },
  {
    name: 'list members',
    allowed: ALL,
    status: 200,
    request: (id) => ({ method: 'GET', url: `${ws(id)}/members` }),
  },
  {
    name: 'update workspace settings',
    allowed: ['owner', 'admin'],
    status: 200,
    request: (id) => ({ method: 'PATCH', url: ws(id), payload: { name: 'Changed' } }),
  },
  {
    name: "manage members: change a member's role",
    allowed: ['owner', 'admin'],
    status: 200,
    request: (id) => ({ method: 'PATCH', url: `${ws(id)}/members/${target.id}`, payload: { role: 'guest' } }),
  },
  {
    name: 'manage members: remove a member',
    allowed: ['owner', 'admin'],
    status: 204,
    request: (id) => ({ method: 'DELETE', url: `${ws(id)}/members/${target.id}` }),
  },
  {
    name: 'manage invitations: invite',
    allowed: ['owner', 'admin'],
    status: 201,
    request: (id) => ({
      method: 'POST',
      url: `${ws(id)}/invitations`,
      payload: { email: uniqueEmail('matrix'), role: 'member' },
    }),
  },
  {
    name: 'manage invitations: list',
    allowed: ['owner', 'admin'],
    status: 200,
    request: (id) => ({ method: 'GET', url: `${ws(id)}/invitations` }),
  },
  {
    name: 'manage invitations: revoke',
    allowed: ['owner', 'admin'],
    status: 204,
    request: (id, x) => ({ method: 'DELETE', url: `${ws(id)}/invitations/${x.invitationId}` }),
  },
  {
    name: 'delete workspace',
    allowed: ['owner'],
    status: 204,
    request: (id) => ({ method: 'DELETE', url: ws(id) }),
  },
  {
    name: 'transfer ownership',
    allowed: ['owner'],
    status: 200,
    request: (id) => ({
      method: 'POST',
      url: `${ws(id)}/transfer-ownership`,
      payload: { userId: target.id },
    }),
  },
];

describe('spec role table', () => {
  for (const action of actions) {
    for (const role of ALL) {
      const allowed = action.allowed.includes(role);
      it(`${role} ${allowed ? 'may' : 'may not'} ${action.name}`, async () => {
        const id = await cloneWorld(t, w);
        await addMember(t, id, target, 'member');
        const { id: invitationId } = await insertInvitation(t, id, uniqueEmail('matrix'));
        const req = action.request(id, { invitationId });
        const res = await t.request({ ...req, headers: w[role].headers });
        const outcome = { status: res.statusCode, code: res.statusCode >= 400 ? res.json().code : undefined };
        expect(outcome, res.body).toEqual(
          allowed ? { status: action.status, code: undefined } : { status: 403, code: 'forbidden:api' },
        );
      });
    }
  }
});
