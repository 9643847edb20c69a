import { createReadStream } from 'node:fs';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppContext } from '../../context.ts';
import { iso, isoOrNull } from '../../http/envelope.ts';
import { notFound } from '../../http/errors.ts';
import { addDays, now } from '../../lib/clock.ts';
import { randomToken } from '../../lib/crypto.ts';
import { toUser } from '../auth/auth.serialize.ts';
import { getUser, listPersonalTokens } from '../auth/auth.service.ts';
import { conversationsForExport } from '../conversations/conversations.service.ts';
import * as repo from './account.repo.ts';

/** A download link lives this long; a user keeps at most this many exports (older ones are removed). */
export const EXPORT_TTL_DAYS = 7;
const MAX_EXPORTS_PER_USER = 5;
const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Sections of the export. Each later feature that holds a user's data (conversations, ...) adds
 * one line here calling its own service (docs/accounts.md "Data export").
 */
type Section = (ctx: AppContext, userId: string) => Promise<unknown>;
const sections: Record<string, Section> = {
  workspaces: async (ctx, userId) =>
    (await repo.listMemberships(ctx.db, userId)).map((m) => ({
      id: m.workspaceId,
      name: m.name,
      slug: m.slug,
      plan: m.plan,
      role: m.role,
      owner: m.ownerId === userId,
      joinedAt: iso(m.joinedAt),
      createdAt: iso(m.createdAt),
    })),
  personalTokens: async (ctx, userId) =>
    (await listPersonalTokens(ctx, userId)).map((t) => ({
      id: t.id,
      name: t.name,
      last4: t.last4,
      createdAt: iso(t.createdAt),
      lastUsedAt: isoOrNull(t.lastUsedAt),
    })),
  // The internal chats the user started, with their messages, and the replies they wrote as a
  // human agent in the inbox (docs/accounts.md "Data export").
  conversations: async (ctx, userId) => (await conversationsForExport(ctx, userId)).conversations,
  agentMessages: async (ctx, userId) => (await conversationsForExport(ctx, userId)).agentMessages,
  sessions: async (ctx, userId) =>
    (await repo.listSessions(ctx.db, userId)).map((s) => ({
      id: s.id,
      createdAt: iso(s.createdAt),
      expiresAt: iso(s.expiresAt),
    })),
};

/** Each user's exports live in their own directory, so ownership is the path itself. */
const userDir = (ctx: AppContext, userId: string) => join(ctx.config.dataDir, 'exports', userId);

/**
 * Builds the export under DATA_DIR/exports/<userId>/<token>.json and returns the token of its
 * download link. The token is 256 random bits; the link also needs the owner's session.
 */
export async function buildExport(ctx: AppContext, userId: string) {
  const user = await getUser(ctx, userId);
  const body: Record<string, unknown> = {
    format: 'parley.account-export.v1',
    exportedAt: iso(now()),
    user: toUser(user),
  };
  for (const [name, build] of Object.entries(sections)) body[name] = await build(ctx, userId);
  const dir = userDir(ctx, userId);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const token = randomToken('', 32);
  await writeFile(join(dir, `${token}.json`), JSON.stringify(body, null, 2), { mode: 0o600 });
  await pruneExports(dir);
  return { user, token, expiresAt: addDays(now(), EXPORT_TTL_DAYS) };
}

async function pruneExports(dir: string) {
  const files = await readdir(dir);
  const dated = await Promise.all(files.map(async (f) => ({ f, t: (await stat(join(dir, f))).mtimeMs })));
  dated.sort((a, b) => b.t - a.t);
  for (const { f } of dated.slice(MAX_EXPORTS_PER_USER)) await rm(join(dir, f), { force: true });
}

/** The owner's export as a stream; anyone else's, an expired or an unknown one: 404. */
export async function openExport(ctx: AppContext, userId: string, token: string) {
  if (!TOKEN_RE.test(token)) throw notFound('Export');
  const file = join(userDir(ctx, userId), `${token}.json`);
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) throw notFound('Export');
  if (info.mtimeMs + EXPORT_TTL_DAYS * 86_400_000 <= now().getTime()) {
    await rm(file, { force: true });
    throw notFound('Export');
  }
  return { stream: createReadStream(file), size: info.size, createdAt: new Date(info.mtimeMs) };
}

export async function removeExports(ctx: AppContext, userId: string) {
  await rm(userDir(ctx, userId), { recursive: true, force: true });
}

/** docs/accounts.md "Data export": POST /api/account/export → 202, and the download link by email. */
export async function requestExport(ctx: AppContext, userId: string, baseUrl: string) {
  const { user, token, expiresAt } = await buildExport(ctx, userId);
  const link = `${baseUrl}/api/account/exports/${token}`;
  await ctx.mail.send({
    to: user.email,
    subject: 'Your Parley data export is ready',
    text: [
      `Hello ${user.name},`,
      '',
      'The export of your Parley account is ready. Download it while signed in:',
      link,
      '',
      `The link works until ${iso(expiresAt)}. If you did not ask for this export, change your password.`,
    ].join('\n'),
  });
  return { email: user.email, expiresAt };
}
