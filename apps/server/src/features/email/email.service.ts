import type { EmailConfig, EmailCreate, EmailPatch } from '@parley/contract/email';
import type { AppContext } from '../../context.ts';
import { isUniqueViolation, type Tx } from '../../db/client.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { now } from '../../lib/clock.ts';
import { decrypt, encrypt, randomToken, sha256Hex } from '../../lib/crypto.ts';
import type { AssistantRow } from '../assistants/assistants.repo.ts';
import { toAssistant } from '../assistants/assistants.serialize.ts';
import { recordEvent } from '../events/events.service.ts';
import * as repo from './email.repo.ts';
import {
  type Check,
  checkImap,
  hostRefusal,
  type ImapSettings,
  type SmtpSettings,
  verifySmtp,
} from './email.transport.ts';

/**
 * The email channel's configuration as owners and admins manage it (docs/email.md
 * "Configuration"): passwords and the forwarding token sealed with ENCRYPTION_KEY, one address
 * per server, the test of the mail servers.
 */

export type { EmailConfigRow } from './email.repo.ts';

export const forwardUrl = (base: string, token: string) => `${base}/api/email/inbound/${token}`;
const seal = (ctx: AppContext, v: string) => encrypt(ctx.config.encryptionKey, v);
const open = (ctx: AppContext, v: string) => decrypt(ctx.config.encryptionKey, v);

export function toConfig(ctx: AppContext, row: repo.EmailConfigRow, base: string): EmailConfig {
  return {
    assistantId: row.assistantId,
    address: row.address,
    displayName: row.displayName,
    inbound:
      row.inboundMode === 'imap'
        ? {
            mode: 'imap',
            host: row.imapHost ?? '',
            port: row.imapPort ?? 993,
            secure: row.imapSecure ?? true,
            username: row.imapUsername ?? '',
            mailbox: row.imapMailbox ?? 'INBOX',
          }
        : { mode: 'forward', forwardUrl: forwardUrl(base, open(ctx, row.forwardTokenSealed)) },
    smtp: row.smtpHost
      ? {
          host: row.smtpHost,
          port: row.smtpPort ?? 587,
          secure: row.smtpSecure ?? false,
          username: row.smtpUsername ?? '',
        }
      : null,
    aiReplies: row.aiReplies,
    signature: row.signature,
    isEnabled: row.isEnabled,
    enableContactMatching: row.enableContactMatching,
    autoCreateContacts: row.autoCreateContacts,
    status: {
      state: row.statusState,
      message: row.statusMessage,
      checkedAt: row.statusCheckedAt?.toISOString() ?? null,
    },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The channel's SMTP settings with the password opened; null: the server's SMTP_URL. */
export function smtpOf(ctx: AppContext, row: repo.EmailConfigRow): SmtpSettings | null {
  if (!row.smtpHost || !row.smtpPasswordSealed) return null;
  return {
    host: row.smtpHost,
    port: row.smtpPort ?? 587,
    secure: row.smtpSecure ?? false,
    username: row.smtpUsername ?? '',
    password: open(ctx, row.smtpPasswordSealed),
  };
}

/** The channel's IMAP settings with the password opened (the watcher's login); undefined for forwarding. */
export function imapOf(ctx: AppContext, row: repo.EmailConfigRow): ImapSettings | undefined {
  if (row.inboundMode !== 'imap' || !row.imapHost || !row.imapPasswordSealed) return undefined;
  return {
    host: row.imapHost,
    port: row.imapPort ?? 993,
    secure: row.imapSecure ?? true,
    username: row.imapUsername ?? '',
    password: open(ctx, row.imapPasswordSealed),
    mailbox: row.imapMailbox ?? 'INBOX',
  };
}

export const findConfig = (ctx: AppContext, assistant: AssistantRow) =>
  repo.findConfig(ctx.db, assistant.workspaceId, assistant.id);

export async function requireConfig(ctx: AppContext, assistant: AssistantRow) {
  const row = await findConfig(ctx, assistant);
  if (!row) throw notFound('Email configuration');
  return row;
}

const addressTaken = () =>
  conflict('This address is already configured on another assistant', { address: 'Already in use' });

type Inbound = EmailCreate['inbound'];
type SmtpIn = NonNullable<EmailCreate['smtp']>;

/** A password left out is the saved one, only for the same host and user (docs/email.md). */
function passwordFor(
  given: string | undefined,
  saved: { host: string | null; username: string | null; sealed: string | null } | undefined,
  next: { host: string; username: string },
  field: string,
  ctx: AppContext,
): string {
  if (given !== undefined) return given;
  if (saved?.sealed && saved.host === next.host && saved.username === next.username)
    return open(ctx, saved.sealed);
  throw badRequest('Validation failed', {
    [field]: saved?.sealed ? 'Required with a new host or user name' : 'Required',
  });
}

type Resolved = { imap: ImapSettings | null; smtp: SmtpSettings | null };

function resolveServers(
  ctx: AppContext,
  inbound: Inbound,
  smtp: SmtpIn | null,
  current: repo.EmailConfigRow | undefined,
): Resolved {
  const imap =
    inbound.mode === 'imap'
      ? {
          host: inbound.host,
          port: inbound.port,
          secure: inbound.secure,
          username: inbound.username,
          mailbox: inbound.mailbox ?? 'INBOX',
          password: passwordFor(
            inbound.password,
            current?.inboundMode === 'imap'
              ? { host: current.imapHost, username: current.imapUsername, sealed: current.imapPasswordSealed }
              : undefined,
            inbound,
            'inbound.password',
            ctx,
          ),
        }
      : null;
  const out = smtp
    ? {
        host: smtp.host,
        port: smtp.port,
        secure: smtp.secure,
        username: smtp.username,
        password: passwordFor(
          smtp.password,
          current
            ? { host: current.smtpHost, username: current.smtpUsername, sealed: current.smtpPasswordSealed }
            : undefined,
          smtp,
          'smtp.password',
          ctx,
        ),
      }
    : null;
  return { imap, smtp: out };
}

async function assertHosts(ctx: AppContext, servers: Resolved) {
  const details: Record<string, string> = {};
  if (servers.imap) {
    const refused = await hostRefusal(ctx, servers.imap.host);
    if (refused) details['inbound.host'] = refused;
  }
  if (servers.smtp) {
    const refused = await hostRefusal(ctx, servers.smtp.host);
    if (refused) details['smtp.host'] = refused;
  }
  if (Object.keys(details).length > 0) throw badRequest('Validation failed', details);
}

function serverColumns(ctx: AppContext, servers: Resolved) {
  const { imap, smtp } = servers;
  return {
    inboundMode: imap ? ('imap' as const) : ('forward' as const),
    imapHost: imap?.host ?? null,
    imapPort: imap?.port ?? null,
    imapSecure: imap?.secure ?? null,
    imapUsername: imap?.username ?? null,
    imapPasswordSealed: imap ? seal(ctx, imap.password) : null,
    imapMailbox: imap?.mailbox ?? null,
    smtpHost: smtp?.host ?? null,
    smtpPort: smtp?.port ?? null,
    smtpSecure: smtp?.secure ?? null,
    smtpUsername: smtp?.username ?? null,
    smtpPasswordSealed: smtp ? seal(ctx, smtp.password) : null,
  };
}

function newForwardToken(ctx: AppContext) {
  const token = randomToken('', 32);
  return { forwardTokenSealed: seal(ctx, token), forwardTokenHash: sha256Hex(token) };
}

/** A configuration change is an assistant change: `assistant.updated`, as for SMS. */
async function saved(
  ctx: AppContext,
  assistant: AssistantRow,
  write: (tx: Tx) => Promise<repo.EmailConfigRow | undefined>,
) {
  try {
    return await ctx.db.transaction(async (tx) => {
      const row = await write(tx);
      if (!row) throw notFound('Email configuration');
      await recordEvent(tx, {
        workspaceId: assistant.workspaceId,
        type: 'assistant.updated',
        data: {
          ...toAssistant(assistant),
          email: { address: row.address, inboundMode: row.inboundMode, isEnabled: row.isEnabled },
        },
      });
      return row;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw addressTaken();
    throw err;
  }
}

async function assertAddressFree(ctx: AppContext, address: string, assistantId: string) {
  const holder = await repo.holderOf(ctx.db, address);
  if (holder && holder !== assistantId) throw addressTaken();
}

export async function createConfig(ctx: AppContext, assistant: AssistantRow, input: EmailCreate) {
  const servers = resolveServers(ctx, input.inbound, input.smtp ?? null, undefined);
  await assertHosts(ctx, servers);
  if (await findConfig(ctx, assistant)) throw conflict('This assistant already has an email configuration');
  await assertAddressFree(ctx, input.address, assistant.id);
  const at = now();
  return saved(ctx, assistant, (tx) =>
    repo.insertConfig(tx, {
      assistantId: assistant.id,
      workspaceId: assistant.workspaceId,
      address: input.address,
      displayName: input.displayName,
      ...serverColumns(ctx, servers),
      ...newForwardToken(ctx),
      aiReplies: input.aiReplies ?? true,
      signature: input.signature ?? '',
      isEnabled: input.isEnabled ?? true,
      enableContactMatching: input.enableContactMatching ?? true,
      autoCreateContacts: input.autoCreateContacts ?? true,
      createdAt: at,
      updatedAt: at,
    }),
  );
}

/** The saved settings as a create body would give them (for PATCH's merge). */
function inboundOf(row: repo.EmailConfigRow): Inbound {
  return row.inboundMode === 'imap'
    ? {
        mode: 'imap',
        host: row.imapHost ?? '',
        port: row.imapPort ?? 993,
        secure: row.imapSecure ?? true,
        username: row.imapUsername ?? '',
        mailbox: row.imapMailbox ?? 'INBOX',
      }
    : { mode: 'forward' };
}
function smtpInOf(row: repo.EmailConfigRow): SmtpIn | null {
  return row.smtpHost
    ? {
        host: row.smtpHost,
        port: row.smtpPort ?? 587,
        secure: row.smtpSecure ?? false,
        username: row.smtpUsername ?? '',
      }
    : null;
}

export async function patchConfig(ctx: AppContext, assistant: AssistantRow, patch: EmailPatch) {
  const current = await requireConfig(ctx, assistant);
  const set: Partial<repo.EmailConfigRow> = { updatedAt: now() };
  if (patch.inbound !== undefined || patch.smtp !== undefined) {
    const servers = resolveServers(
      ctx,
      patch.inbound ?? inboundOf(current),
      patch.smtp === undefined ? smtpInOf(current) : patch.smtp,
      current,
    );
    await assertHosts(ctx, servers);
    Object.assign(set, serverColumns(ctx, servers));
  }
  if (patch.address !== undefined) {
    await assertAddressFree(ctx, patch.address, assistant.id);
    set.address = patch.address;
  }
  if (patch.rotateForwardToken) Object.assign(set, newForwardToken(ctx));
  if (patch.displayName !== undefined) set.displayName = patch.displayName;
  if (patch.aiReplies !== undefined) set.aiReplies = patch.aiReplies;
  if (patch.signature !== undefined) set.signature = patch.signature;
  if (patch.isEnabled !== undefined) set.isEnabled = patch.isEnabled;
  if (patch.enableContactMatching !== undefined) set.enableContactMatching = patch.enableContactMatching;
  if (patch.autoCreateContacts !== undefined) set.autoCreateContacts = patch.autoCreateContacts;
  return saved(ctx, assistant, (tx) => repo.updateConfig(tx, assistant.workspaceId, assistant.id, set));
}

export async function deleteConfig(ctx: AppContext, assistant: AssistantRow) {
  const gone = await ctx.db.transaction(async (tx) => {
    const deleted = await repo.deleteConfig(tx, assistant.workspaceId, assistant.id);
    if (deleted) {
      await recordEvent(tx, {
        workspaceId: assistant.workspaceId,
        type: 'assistant.updated',
        data: { ...toAssistant(assistant), email: null },
      });
    }
    return deleted;
  });
  if (!gone) throw notFound('Email configuration');
}

/** The test button: IMAP login and SMTP verify, in words; nothing saved (docs/email.md). */
export async function testConfig(
  ctx: AppContext,
  assistant: AssistantRow,
  input: EmailCreate,
): Promise<{ imap: Check | null; smtp: Check }> {
  const current = await findConfig(ctx, assistant);
  const servers = resolveServers(ctx, input.inbound, input.smtp ?? null, current);
  const [imap, smtp] = await Promise.all([
    servers.imap ? checkImap(ctx, servers.imap) : Promise.resolve(null),
    verifySmtp(ctx, servers.smtp),
  ]);
  return { imap, smtp };
}

/**
 * Records how the channel's mail servers last answered (`status` on the configuration): called
 * after each send, and by the IMAP watcher after each mailbox check.
 */
export async function setStatus(
  ctx: AppContext,
  channel: { workspaceId: string; assistantId: string },
  check: Check,
) {
  await repo.updateConfig(ctx.db, channel.workspaceId, channel.assistantId, {
    statusState: check.ok ? 'ok' : 'error',
    statusMessage: check.message.slice(0, 500),
    statusCheckedAt: now(),
  });
}
