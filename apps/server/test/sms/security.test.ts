import { afterAll, beforeAll } from 'vitest';
import { createAssistant } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';
import { securitySuite } from '../support/security.ts';
import type { SmsProvider } from '../support/sms-provider.ts';
import { newAccountSid, newAuthToken } from '../support/sms-provider.ts';
import { ownerOf, type World } from '../support/world.ts';
import { newNumber, smsApp } from './helpers.ts';

/**
 * Every credentialed SMS route (docs/sms.md): 401 without or with a wrong credential, 404 across
 * workspaces, 403 below admin, 403 plan_upgrade_required on Free (channels are a paid feature).
 */
let t: TestApp;
let provider: SmsProvider;
beforeAll(async () => {
  ({ t, provider } = await smsApp());
});
afterAll(async () => {
  await t.close();
  await provider.close();
});

/** Credentials the provider stand-in knows: a save is confirmed with the provider first. */
const credentials = () => {
  const c = {
    providerAccountSid: newAccountSid(),
    providerAuthToken: newAuthToken(),
    providerPhoneNumber: newNumber(),
  };
  provider.addAccount(c.providerAccountSid, c.providerAuthToken, { [c.providerPhoneNumber]: {} });
  return c;
};

/** An assistant of the workspace; with a configuration where the plan allows one. */
async function configured(tt: TestApp, w: World, ws: string) {
  const owner = ownerOf(w, ws);
  const assistantId = await createAssistant(tt, owner, ws);
  await tt.request({
    method: 'POST',
    url: `/api/assistants/${assistantId}/sms`,
    headers: owner.headers,
    payload: credentials(),
  });
  return { assistantId };
}
const bare = async (tt: TestApp, w: World, ws: string) => ({
  assistantId: await createAssistant(tt, ownerOf(w, ws), ws),
});

const formA = { auth: 'session', minRole: 'admin', planFeature: 'channels' } as const;
const formB = { auth: 'user', minRole: 'admin', planFeature: 'channels' } as const;
const a = (x: Record<string, string>) => `/api/assistants/${x.assistantId}/sms`;
const b = (ws: string, x: Record<string, string>) => `/api/workspaces/${ws}/assistants/${x.assistantId}/sms`;

securitySuite(() => t, {
  ...formA,
  name: 'GET /api/assistants/:id/sms',
  prepare: configured,
  request: (_ws, x) => ({ method: 'GET', url: a(x) }),
});
securitySuite(() => t, {
  ...formA,
  name: 'POST /api/assistants/:id/sms',
  prepare: bare,
  request: (_ws, x) => ({ method: 'POST', url: a(x), payload: credentials() }),
});
securitySuite(() => t, {
  ...formA,
  name: 'PATCH /api/assistants/:id/sms',
  prepare: configured,
  request: (_ws, x) => ({ method: 'PATCH', url: a(x), payload: { maxMessageLength: 320 } }),
});
securitySuite(() => t, {
  ...formA,
  name: 'DELETE /api/assistants/:id/sms',
  prepare: configured,
  request: (_ws, x) => ({ method: 'DELETE', url: a(x) }),
});
securitySuite(() => t, {
  ...formA,
  name: 'POST /api/assistants/:id/sms/test',
  prepare: configured,
  request: (_ws, x) => ({ method: 'POST', url: `${a(x)}/test`, payload: credentials() }),
});
securitySuite(() => t, {
  ...formA,
  name: 'GET /api/assistants/:id/sms/sessions',
  prepare: configured,
  request: (_ws, x) => ({ method: 'GET', url: `${a(x)}/sessions` }),
});

const formBBody = () => {
  const c = credentials();
  return {
    enabled: true,
    providerAccountSid: c.providerAccountSid,
    providerAuthToken: c.providerAuthToken,
    phoneNumber: c.providerPhoneNumber,
  };
};
securitySuite(() => t, {
  ...formB,
  name: 'GET /api/workspaces/:ws/assistants/:id/sms',
  prepare: configured,
  request: (ws, x) => ({ method: 'GET', url: b(ws, x) }),
});
securitySuite(() => t, {
  ...formB,
  name: 'PUT /api/workspaces/:ws/assistants/:id/sms',
  prepare: bare,
  request: (ws, x) => ({ method: 'PUT', url: b(ws, x), payload: formBBody() }),
});
securitySuite(() => t, {
  ...formB,
  name: 'DELETE /api/workspaces/:ws/assistants/:id/sms',
  prepare: configured,
  request: (ws, x) => ({ method: 'DELETE', url: b(ws, x) }),
});
securitySuite(() => t, {
  ...formB,
  name: 'POST /api/workspaces/:ws/assistants/:id/sms/test',
  prepare: configured,
  request: (ws, x) => {
    const c = formBBody();
    return {
      method: 'POST',
      url: `${b(ws, x)}/test`,
      payload: {
        providerAccountSid: c.providerAccountSid,
        providerAuthToken: c.providerAuthToken,
        phoneNumber: c.phoneNumber,
      },
    };
  },
});
securitySuite(() => t, {
  ...formB,
  name: 'GET /api/workspaces/:ws/assistants/:id/sms/analytics',
  prepare: configured,
  request: (ws, x) => ({ method: 'GET', url: `${b(ws, x)}/analytics?period=7d` }),
});
