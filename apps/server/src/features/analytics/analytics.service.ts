import type { Period } from '@parley/contract/periods';
import type { AppContext } from '../../context.ts';
import { windowOf } from '../../lib/periods.ts';
import * as repo from './analytics.repo.ts';
import { ROLLED_DAYS } from './rollup.ts';

/**
 * Workspace analytics computed from Parley's own tables (docs/analytics.md). Read only; every
 * figure of a response covers the same window. The per-day series read closed days from the
 * per-day counters (docs/analytics.md "Per-day counters"): `span` says up to which day.
 */

const DAY_MS = 86_400_000;
/** Always listed, with zeros when unused; a channel added later appears once it has data. */
const CHANNELS = ['widget', 'chat', 'sms'];

/**
 * The period and the last day rolled up. A period that starts before the counters' oldest day (a
 * clock behind the database's by more than a day) is counted live.
 */
async function spanOf(ctx: AppContext, workspaceId: string, since: Date): Promise<repo.Span> {
  const through = await repo.rolledThrough(ctx.db, workspaceId);
  const oldest = through === null ? 0 : Date.parse(`${through}T00:00:00Z`) - (ROLLED_DAYS - 1) * DAY_MS;
  return { since, through: since.getTime() >= oldest ? through : null };
}

const share = (part: number, whole: number) => (whole > 0 ? part / whole : null);
const zeros = (channels: string[]) => Object.fromEntries(channels.map((c) => [c, 0]));

/** `GET /api/workspaces/{ws}/analytics`: the figures of the analytics page. */
export async function overview(ctx: AppContext, workspaceId: string, period: Period) {
  const w = windowOf(period);
  const span = await spanOf(ctx, workspaceId, w.since);
  const [conversations, replies, feedback] = await Promise.all([
    repo.conversationsByDay(ctx.db, workspaceId, span),
    repo.aiRepliesByDay(ctx.db, workspaceId, span),
    repo.feedbackCounts(ctx.db, workspaceId, w.since),
  ]);
  const channels = [...new Set([...CHANNELS, ...conversations.map((r) => r.channel)])];
  const days = new Map(w.dates.map((date) => [date, { date, conversations: zeros(channels), credits: 0 }]));
  const byChannel = zeros(channels);
  let total = 0;
  let handedOff = 0;
  let resolved = 0;
  for (const r of conversations) {
    const day = days.get(r.day);
    if (day) day.conversations[r.channel] = r.conversations;
    byChannel[r.channel] = (byChannel[r.channel] ?? 0) + r.conversations;
    total += r.conversations;
    handedOff += r.handedOff;
    resolved += r.resolved;
  }
  let credits = 0;
  for (const r of replies) {
    const day = days.get(r.day);
    if (day) day.credits = r.replies;
    credits += r.replies;
  }
  const rated = feedback.positive + feedback.negative;
  return {
    period,
    since: w.since.toISOString(),
    until: w.until.toISOString(),
    channels,
    days: [...days.values()],
    totals: { conversations: total, byChannel, credits },
    handoff: { conversations: handedOff, rate: share(handedOff, total) },
    resolvedWithoutPerson: { conversations: resolved, rate: share(resolved, total) },
    feedback: {
      ...feedback,
      total: rated,
      positiveRate: share(feedback.positive, rated),
      responseRate: share(rated, credits),
    },
  };
}

/** `GET /api/workspaces/{ws}/analytics/knowledge-gaps`: questions the knowledge did not answer. */
export async function knowledgeGaps(ctx: AppContext, workspaceId: string, period: Period, limit: number) {
  const w = windowOf(period);
  const span = await spanOf(ctx, workspaceId, w.since);
  const [gaps, aiReplies] = await Promise.all([
    repo.knowledgeGaps(ctx.db, workspaceId, w.since, limit),
    repo.aiReplies(ctx.db, workspaceId, span),
  ]);
  return {
    period,
    since: w.since.toISOString(),
    until: w.until.toISOString(),
    replies: gaps.total,
    aiReplies,
    rate: share(gaps.total, aiReplies),
    gaps: gaps.rows.map((r) => ({
      question: r.question,
      asked: r.asked ?? r.question,
      count: r.count,
      lastAskedAt: new Date(r.lastAskedAt).toISOString(),
    })),
  };
}

/** `GET /api/analytics/channels`: message volume per channel (docs/analytics.md "Message volume per channel"). */
export async function channels(ctx: AppContext, workspaceId: string, period: Period) {
  const w = windowOf(period);
  const span = await spanOf(ctx, workspaceId, w.since);
  const [volume, active] = await Promise.all([
    repo.channelMessages(ctx.db, workspaceId, span),
    repo.activeConversations(ctx.db, workspaceId, w.since),
  ]);
  const names = [...new Set([...CHANNELS, ...active.map((r) => r.channel)])];
  const counts = new Map(active.map((r) => [r.channel, r.conversations]));
  const byChannel = new Map(volume.map((r) => [r.channel, r]));
  return {
    period,
    since: w.since.toISOString(),
    until: w.until.toISOString(),
    channels: names.map((channel) => {
      const r = byChannel.get(channel);
      const inbound = r?.inbound ?? 0;
      const outbound = r?.outbound ?? 0;
      return {
        channel,
        conversations: counts.get(channel) ?? 0,
        messages: inbound + outbound,
        inbound,
        outbound,
      };
    }),
  };
}
