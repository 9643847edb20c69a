import type { Period } from '@parley/contract/periods';
import type { FormACreate, FormAPatch, FormBPut } from '@parley/contract/sms';
import type { AppContext } from '../../context.ts';
import { isUniqueViolation, type Tx } from '../../db/client.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { now } from '../../lib/clock.ts';
import { decrypt, encrypt } from '../../lib/crypto.ts';
import { windowOf } from '../../lib/periods.ts';
import type { AssistantRow } from '../assistants/assistants.repo.ts';
import { toAssistant } from '../assistants/assistants.serialize.ts';
import { recordEvent } from '../events/events.service.ts';
import type { Lookup } from './provider.ts';
import { type FieldNames, FORM_A_FIELDS, FORM_B_FIELDS, lookUp, requireHeld } from './sms.ownership.ts';
import * as repo from './sms.repo.ts';

/**
 * The SMS configuration as owners and admins manage it, in both forms over one record
 * (docs/sms.md "Configuration"), the sessions listing and the analytics.
 */

export { provider } from './sms.ownership.ts';
export type { SmsConfigRow } from './sms.repo.ts';

/** `{PUBLIC_BASE_URL}/api/sms/webhook/{assistantId}`: the URL to paste at the provider. */
export const webhookUrl = (base: string, assistantId: string) => `${base}/api/sms/webhook/${assistantId}`;
export const statusCallbackUrl = (base: string, assistantId: string) =>
  `${base}/api/sms/status/${assistantId}`;

export const sealToken = (ctx: AppContext, token: string) => encrypt(ctx.config.encryptionKey, token);
export const tokenOf = (ctx: AppContext, row: repo.SmsConfigRow) =>
  decrypt(ctx.config.encryptionKey, row.authTokenSealed);

export const toFormA = (row: repo.SmsConfigRow, base: string) => ({
  providerAccountSid: row.accountSid,
  providerPhoneNumber: row.phoneNumber,
  isEnabled: row.isEnabled,
  maxMessageLength: row.maxMessageLength,
  enableContactMatching: row.enableContactMatching,
  autoCreateContacts: row.autoCreateContacts,
  webhookUrl: webhookUrl(base, row.assistantId),
  createdAt: row.createdAt.toISOString(),
});

export const toFormB = (row: repo.SmsConfigRow, base: string) => ({
  enabled: row.isEnabled,
  phoneNumber: row.phoneNumber,
  providerAccountSid: row.accountSid,
  webhookUrl: webhookUrl(base, row.assistantId),
  sessionTimeoutMinutes: row.sessionTimeoutMinutes,
  createdAt: row.createdAt.toISOString(),
});

const numberTaken = () =>
  conflict('This phone number is already configured on another assistant', {
    phoneNumber: 'Already in use',
  });

async function assertNumberFree(ctx: AppContext, phoneNumber: string, assistantId: string) {
  const holder = await repo.holderOf(ctx.db, phoneNumber);
  if (holder && holder !== assistantId) throw numberTaken();
}

/** A save that lost a race on the number (or on the assistant's one record) is a 409 too. */
async function uniquely<T>(work: () => Promise<T>, onDuplicate: () => Error): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err)) throw onDuplicate();
    throw err;
  }
}

/** A configuration change is an assistant configuration change: `assistant.updated`. */
async function saved(
  ctx: AppContext,
  assistant: AssistantRow,
  write: (tx: Tx) => Promise<repo.SmsConfigRow>,
) {
  return ctx.db.transaction(async (tx) => {
    const row = await write(tx);
    await recordEvent(tx, {
      workspaceId: assistant.workspaceId,
      type: 'assistant.updated',
      data: {
        ...toAssistant(assistant),
        sms: {
          providerAccountSid: row.accountSid,
          phoneNumber: row.phoneNumber,
          isEnabled: row.isEnabled,
          sessionTimeoutMinutes: row.sessionTimeoutMinutes,
          maxMessageLength: row.maxMessageLength,
        },
      },
    });
    return row;
  });
}

export const findConfig = (ctx: AppContext, assistant: AssistantRow) =>
  repo.findConfig(ctx.db, assistant.workspaceId, assistant.id);

export async function requireConfig(ctx: AppContext, assistant: AssistantRow) {
  const row = await findConfig(ctx, assistant);
  if (!row) throw notFound('SMS configuration');
  return row;
}

/**
 * Form A POST: the provider confirms the number first (400 otherwise), then 409 when the assistant
 * has one already, or the number is another assistant's.
 */
export async function createFormA(ctx: AppContext, assistant: AssistantRow, input: FormACreate) {
  await requireHeld(
    ctx,
    {
      accountSid: input.providerAccountSid,
      authToken: input.providerAuthToken,
      phoneNumber: input.providerPhoneNumber,
    },
    FORM_A_FIELDS,
  );
  if (await findConfig(ctx, assistant)) throw conflict('This assistant already has an SMS configuration');
  await assertNumberFree(ctx, input.providerPhoneNumber, assistant.id);
  const at = now();
  return uniquely(
    () =>
      saved(ctx, assistant, (tx) =>
        repo.insertConfig(tx, {
          assistantId: assistant.id,
          workspaceId: assistant.workspaceId,
          accountSid: input.providerAccountSid,
          authTokenSealed: sealToken(ctx, input.providerAuthToken),
          phoneNumber: input.providerPhoneNumber,
          isEnabled: input.isEnabled ?? true,
          maxMessageLength: input.maxMessageLength ?? 1600,
          enableContactMatching: input.enableContactMatching ?? true,
          autoCreateContacts: input.autoCreateContacts ?? true,
          createdAt: at,
          updatedAt: at,
        }),
      ),
    () => conflict('This assistant already has an SMS configuration, or the number is in use'),
  );
}

/**
 * Form A PATCH: any subset; 404 when there is none. A change of the account SID, the token or the
 * number is confirmed with the provider (with the stored values for the others); other fields
 * alone never ask it.
 */
export async function patchFormA(ctx: AppContext, assistant: AssistantRow, patch: FormAPatch) {
  const current = await requireConfig(ctx, assistant);
  const newSid = patch.providerAccountSid !== undefined && patch.providerAccountSid !== current.accountSid;
  if (newSid && patch.providerAuthToken === undefined) {
    // The saved token is never sent to the provider for another account (docs/sms.md "Proof of ownership").
    throw badRequest('Validation failed', {
      providerAuthToken: 'Required with a new account SID: the saved token belongs to the saved one',
    });
  }
  const next = {
    accountSid: patch.providerAccountSid ?? current.accountSid,
    authToken: patch.providerAuthToken ?? tokenOf(ctx, current),
    phoneNumber: patch.providerPhoneNumber ?? current.phoneNumber,
  };
  const changed =
    newSid ||
    next.phoneNumber !== current.phoneNumber ||
    (patch.providerAuthToken !== undefined && patch.providerAuthToken !== tokenOf(ctx, current));
  if (changed) await requireHeld(ctx, next, FORM_A_FIELDS);
  if (patch.providerPhoneNumber) await assertNumberFree(ctx, patch.providerPhoneNumber, assistant.id);
  const set: Partial<repo.SmsConfigRow> = { updatedAt: now() };
  if (patch.providerAccountSid !== undefined) set.accountSid = patch.providerAccountSid;
  if (patch.providerAuthToken !== undefined) set.authTokenSealed = sealToken(ctx, patch.providerAuthToken);
  if (patch.providerPhoneNumber !== undefined) set.phoneNumber = patch.providerPhoneNumber;
  if (patch.isEnabled !== undefined) set.isEnabled = patch.isEnabled;
  if (patch.maxMessageLength !== undefined) set.maxMessageLength = patch.maxMessageLength;
  if (patch.enableContactMatching !== undefined) set.enableContactMatching = patch.enableContactMatching;
  if (patch.autoCreateContacts !== undefined) set.autoCreateContacts = patch.autoCreateContacts;
  return uniquely(
    () =>
      saved(ctx, assistant, async (tx) => {
        const row = await repo.updateConfig(tx, assistant.workspaceId, assistant.id, set);
        if (!row) throw notFound('SMS configuration');
        return row;
      }),
    numberTaken,
  );
}

/**
 * Form B PUT: creates the configuration or replaces Form B's fields (an omitted
 * `sessionTimeoutMinutes` goes back to 30); Form A's own fields keep their values. The provider
 * confirms the number on every PUT, as the credentials come with each.
 */
export async function putFormB(ctx: AppContext, assistant: AssistantRow, input: FormBPut) {
  const { providerAccountSid: accountSid, providerAuthToken: authToken, phoneNumber } = input;
  await requireHeld(ctx, { accountSid, authToken, phoneNumber }, FORM_B_FIELDS);
  await assertNumberFree(ctx, input.phoneNumber, assistant.id);
  const at = now();
  const fields = {
    accountSid: input.providerAccountSid,
    authTokenSealed: sealToken(ctx, input.providerAuthToken),
    phoneNumber: input.phoneNumber,
    isEnabled: input.enabled,
    sessionTimeoutMinutes: input.sessionTimeoutMinutes ?? 30,
  };
  return uniquely(
    () =>
      saved(ctx, assistant, (tx) =>
        repo.upsertConfig(
          tx,
          {
            ...fields,
            assistantId: assistant.id,
            workspaceId: assistant.workspaceId,
            createdAt: at,
            updatedAt: at,
          },
          { ...fields, updatedAt: at },
        ),
      ),
    numberTaken,
  );
}

export async function deleteConfig(ctx: AppContext, assistant: AssistantRow) {
  const gone = await ctx.db.transaction(async (tx) => {
    const deleted = await repo.deleteConfig(tx, assistant.workspaceId, assistant.id);
    if (deleted) {
      await recordEvent(tx, {
        workspaceId: assistant.workspaceId,
        type: 'assistant.updated',
        data: { ...toAssistant(assistant), sms: null },
      });
    }
    return deleted;
  });
  if (!gone) throw notFound('SMS configuration');
}

/**
 * Asks the provider whether these credentials hold this number (docs/sms.md "Configuration");
 * nothing is saved, and no configuration is needed: it is how an owner checks them before saving.
 * Without a token, the saved one is used when the account SID is the saved one (the dashboard
 * never gets the token back); otherwise the token is required.
 */
export async function testCredentials(
  ctx: AppContext,
  assistant: AssistantRow,
  input: { accountSid: string; authToken: string | undefined; phoneNumber: string },
  names: FieldNames,
): Promise<Lookup> {
  let authToken = input.authToken;
  if (authToken === undefined) {
    const saved = await findConfig(ctx, assistant);
    if (!saved || saved.accountSid !== input.accountSid) {
      throw badRequest('Validation failed', {
        [names.authToken]: saved
          ? 'Required: the saved auth token is used only with the saved account SID'
          : 'Required: this assistant has no saved auth token',
      });
    }
    authToken = tokenOf(ctx, saved);
  }
  const { valid, phoneNumberCapabilities, reason } = await lookUp(ctx, { ...input, authToken });
  return reason === undefined
    ? { valid, phoneNumberCapabilities }
    : { valid, phoneNumberCapabilities, reason };
}

export const toSession = (s: repo.SmsSessionRow) => ({
  id: s.id,
  conversationId: s.conversationId,
  phoneNumber: s.phoneNumber,
  contactId: s.contactId,
  status: s.status,
  messageCount: s.messageCount,
  startedAt: s.startedAt.toISOString(),
  lastMessageAt: s.lastMessageAt.toISOString(),
});

export async function listSessions(
  ctx: AppContext,
  assistant: AssistantRow,
  page: { limit: number; offset: number },
) {
  const { rows, total } = await repo.listSessions(ctx.db, assistant.workspaceId, assistant.id, page);
  return { data: rows.map(toSession), total, limit: page.limit, offset: page.offset };
}

/** Form B analytics (docs/sms.md "Analytics"). */
export async function analytics(ctx: AppContext, assistant: AssistantRow, period: Period) {
  await requireConfig(ctx, assistant);
  const { since, until: when, dates } = windowOf(period);
  const [days, sessions] = await Promise.all([
    repo.messageCountsByDay(ctx.db, assistant, since),
    repo.sessionCounts(ctx.db, assistant, since, when),
  ]);
  const byDay = new Map(days.map((d) => [d.day, d]));
  const series = dates.map((date) => {
    const d = byDay.get(date);
    return { date, inbound: d?.inbound ?? 0, outbound: d?.outbound ?? 0 };
  });
  const inbound = series.reduce((n, d) => n + d.inbound, 0);
  const outbound = series.reduce((n, d) => n + d.outbound, 0);
  return {
    totalMessages: inbound + outbound,
    inbound,
    outbound,
    uniqueContacts: sessions.uniqueContacts,
    activeSessions: sessions.activeSessions,
    period,
    series,
  };
}
