import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { emailConfigs, emailImapState } from '../../src/db/schema/index.ts';
import type { Dovecot } from '../support/dovecot.ts';
import type { TestUser } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';
import { waitFor } from '../support/wait.ts';
import { type MailServer, newAddress, smtpOf } from './support.ts';

/**
 * Helpers of the IMAP tests (docs/email.md "IMAP"): a channel reading the Dovecot of the test, the
 * email conversations the inbox lists, and what the watcher recorded.
 */

export const imapOf = (d: Dovecot, extra: Record<string, unknown> = {}) => ({
  mode: 'imap',
  host: d.host,
  port: d.port,
  secure: false,
  username: d.user,
  password: d.password,
  ...extra,
});

/** Saves an IMAP channel on the assistant through the API. */
export async function saveImapChannel(
  t: TestApp,
  owner: TestUser,
  assistantId: string,
  d: Dovecot,
  smtp: MailServer,
  extra: Record<string, unknown> = {},
  inbound: Record<string, unknown> = {},
) {
  const res = await t.request({
    method: 'POST',
    url: `/api/assistants/${assistantId}/email`,
    headers: owner.headers,
    payload: {
      address: newAddress(),
      displayName: 'Acme Support',
      inbound: imapOf(d, inbound),
      smtp: smtpOf(smtp),
      ...extra,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

export async function patchChannel(t: TestApp, owner: TestUser, assistantId: string, payload: object) {
  const res = await t.request({
    method: 'PATCH',
    url: `/api/assistants/${assistantId}/email`,
    headers: owner.headers,
    payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

/** The channel's status as GET shows it. */
export async function statusOf(t: TestApp, owner: TestUser, assistantId: string) {
  const res = await t.request({
    method: 'GET',
    url: `/api/assistants/${assistantId}/email`,
    headers: owner.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.status as { state: 'ok' | 'error'; message: string; checkedAt: string | null };
}

/** Titles of the assistant's email conversations in the inbox (a title is the mail's subject). */
export async function emailTitles(t: TestApp, user: TestUser, workspaceId: string, assistantId: string) {
  const res = await t.request({
    method: 'GET',
    url: `/api/inbox/conversations?workspaceId=${workspaceId}&assistantId=${assistantId}&channel=email`,
    headers: user.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as { title: string }[]).map((c) => c.title).sort();
}

/** Waits until the watcher has connected and recorded where the mailbox stands. */
export async function waitForWatching(t: TestApp, assistantId: string, timeoutMs = 15_000) {
  await waitFor(
    async () => {
      const [row] = await t.ctx.db
        .select()
        .from(emailImapState)
        .where(eq(emailImapState.assistantId, assistantId));
      const [cfg] = await t.ctx.db
        .select()
        .from(emailConfigs)
        .where(eq(emailConfigs.assistantId, assistantId));
      return (
        row?.uidValidity != null && cfg?.statusState === 'ok' && cfg.statusMessage.startsWith('Watching')
      );
    },
    timeoutMs,
    'the IMAP watcher to connect',
  );
}

/** The watcher's recorded state (lease holder, last UID), for assertions. */
export async function imapState(t: TestApp, assistantId: string) {
  const [row] = await t.ctx.db
    .select()
    .from(emailImapState)
    .where(eq(emailImapState.assistantId, assistantId));
  return row;
}
