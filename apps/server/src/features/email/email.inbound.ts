import { EMAIL_MAX_BYTES } from '@parley/contract/email';
import type { AppContext } from '../../context.ts';
import { planHas } from '../../http/actor.ts';
import { now } from '../../lib/clock.ts';
import { sha256Hex } from '../../lib/crypto.ts';
import { newId } from '../../lib/ids.ts';
import { planStanding } from '../workspaces/plan.ts';
import * as repo from './email.repo.ts';

/**
 * Receipt of one email, whichever way it came (docs/email.md "Inbound by forwarding"):
 *
 *   ingestEmail(ctx, channel, raw, source) → { stored }
 *
 * - `ctx`: the app context (AppContext); `channel`: the assistant id of the email channel, or the
 *   channel as email.repo.ts `findChannel` reads it when the caller has it already;
 *   `raw`: the message exactly as received (RFC 5322 bytes); `source`: 'imap' (the IMAP watcher)
 *   or 'forward' (`POST /api/email/inbound/{token}`).
 * - Stores the raw source once per channel and Message-ID (a unique index decides between
 *   processes racing to store it: one wins, the others get `stored: false`), then wakes the
 *   `email-inbound` job (here, or by a NOTIFY where it runs elsewhere), which does everything else (parsing, authentication, threading,
 *   attachments, the contact, the AI's reply). Nothing heavy runs here: it costs one lookup (none when given the channel) and
 *   one insert, so a caller can answer or move on at once.
 * - `stored: false` also when the channel is gone, switched off, on a plan without channels, or
 *   the message is larger than 25 MB: such mail is dropped, not kept.
 * - A message without a Message-ID is keyed by the SHA-256 of its bytes, so the same bytes twice
 *   are stored once.
 */
export async function ingestEmail(
  ctx: AppContext,
  channel: string | repo.EmailChannel,
  raw: Buffer,
  source: 'imap' | 'forward',
): Promise<{ stored: boolean }> {
  if (raw.length === 0 || raw.length > EMAIL_MAX_BYTES) return { stored: false };
  const found = typeof channel === 'string' ? await repo.findChannel(ctx.db, channel) : channel;
  if (!found?.config.isEnabled || !planHas(planStanding(found).plan, 'channels')) {
    return { stored: false };
  }
  const processesHere = ctx.jobs.runs('email-inbound');
  const id = await repo.insertInbound(
    ctx.db,
    {
      id: newId('emi'),
      workspaceId: found.config.workspaceId,
      assistantId: found.config.assistantId,
      messageIdHeader: messageIdOf(raw) ?? `<${sha256Hex(raw.toString('latin1'))}@parley.invalid>`,
      source,
      raw,
      size: raw.length,
      receivedAt: now(),
    },
    // The processing job here is woken directly; wherever else it runs (JOBS, docs/jobs.md
    // "Which process runs which job"), by the NOTIFY its LISTEN hears.
    !processesHere,
  );
  if (id && processesHere) ctx.jobs.wake('email-inbound');
  return { stored: id !== undefined };
}

/** Where the header section ends: the first empty line (CRLF or LF), within the first 1 MB. */
function headerEnd(raw: Buffer): number {
  const limit = Math.min(raw.length, 1024 * 1024);
  const crlf = raw.indexOf('\r\n\r\n');
  const lf = raw.indexOf('\n\n');
  const ends = [crlf, lf].filter((i) => i >= 0 && i < limit);
  return ends.length ? Math.min(...ends) : limit;
}

/**
 * The Message-ID header's value (`<...>`), lower-cased host part kept as sent, or undefined. Only
 * the dedupe key is read here; the job parses the message with mailparser.
 */
export function messageIdOf(raw: Buffer): string | undefined {
  const head = raw.subarray(0, headerEnd(raw)).toString('latin1');
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const m = /^message-id:[ \t]*(<[^>\s]{1,900}>)/im.exec(unfolded);
  return m?.[1];
}
