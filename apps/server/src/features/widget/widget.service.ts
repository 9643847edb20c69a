import type { ChangedBy } from '@parley/contract/inbox';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import type { Citation } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { now } from '../../lib/clock.ts';
import { randomToken, sha256Hex } from '../../lib/crypto.ts';
import { newId } from '../../lib/ids.ts';
import { teamStatusOf } from '../business-hours/business-hours.service.ts';
import { beginTurn, type Turn } from '../chat/turn.ts';
import {
  announceChange,
  applyChange,
  type Changed,
  changeConversation,
} from '../conversations/conversation-states.ts';
import { findConversation } from '../conversations/conversations.service.ts';
import { recordEvent } from '../events/events.service.ts';
import * as repo from './widget.repo.ts';
import type { WidgetAccess, WidgetSession } from './widget-access.ts';
import { languageConfig, type VisitorLanguages } from './widget-language.ts';
import { countDailyMessage, countUnlimited, refundDailyMessage, uncounted } from './widget-limits.ts';
import { widgetSessionChannel } from './widget-live.ts';

/**
 * The public widget's sessions, chat, history and end (docs/widget.md, both
 * forms). Both route files call these; the three-layer check has
 * already run (widget-access.ts), so every function gets a checked `WidgetAccess`.
 */

export type Metadata = { page?: string; referrer?: string; userAgent?: string };

/** Sessions keep at most this many history messages on screen (the newest). */
const HISTORY_LIMIT = 200;

const sessionOf = (access: WidgetAccess): WidgetSession => {
  if (!access.session) throw new AppError('unauthorized:widget', 'A valid widget session token is required');
  return access.session;
};

/**
 * docs/widget.md "Form A: the init flow": the configuration a page may see, with whether a person
 * answers now and when next (docs/business-hours.md "Widget").
 */
export async function publicConfig(ctx: AppContext, access: WidgetAccess, visitor: VisitorLanguages = {}) {
  const { config, assistant } = access;
  const team = await teamStatusOf(ctx, assistant.workspaceId);
  return {
    assistantName: assistant.name,
    // docs/widget.md "Embedding and configuration": the widget's welcome message falls back to the
    // assistant's.
    welcomeMessage: config.welcomeMessage ?? assistant.welcomeMessage,
    primaryColor: config.primaryColor,
    position: config.position,
    leadFormEnabled: config.leadFormEnabled,
    leadFormFields: config.leadFormFields,
    leadFormRequiredFields: config.leadFormRequiredFields,
    teamOnline: team.teamOnline,
    nextOpenAt: team.nextOpenAt,
    ...languageConfig(access, visitor),
  };
}

/**
 * A new anonymous session (docs/widget.md: anonymous until a lead form links it). The
 * token is random (256 bits), returned once, and stored only as its SHA-256.
 */
export async function startSession(ctx: AppContext, access: WidgetAccess, metadata: Metadata = {}) {
  const token = randomToken('wst_', 32);
  const at = now();
  const session = await repo.insertSession(ctx.db, {
    id: newId('wss'),
    workspaceId: access.assistant.workspaceId,
    assistantId: access.assistant.id,
    tokenHash: sha256Hex(token),
    metadata: { ...metadata, origin: access.origin },
    lastActivityAt: at,
    createdAt: at,
  });
  return { session, token };
}

/** Form A init: a new session, or the caller's own one resumed with its history. */
export async function initSession(
  ctx: AppContext,
  access: WidgetAccess,
  token: string | undefined,
  metadata: Metadata | undefined,
  visitor: VisitorLanguages = {},
) {
  let session = access.session;
  let sessionToken = token;
  if (session) {
    if (session.status === 'active') await repo.touchSession(ctx.db, session, now());
  } else {
    const created = await startSession(ctx, access, metadata);
    session = created.session;
    sessionToken = created.token;
  }
  const [config, messages] = await Promise.all([publicConfig(ctx, access, visitor), history(ctx, session)]);
  return {
    sessionId: session.id,
    sessionToken: sessionToken as string,
    status: session.status,
    config,
    messages,
  };
}

type HistoryRow = Awaited<ReturnType<typeof repo.historyRows>>[number];

/**
 * A history message (`user` or `assistant`); a human agent's reply shows as `assistant` with
 * an `author` (docs/widget.md "Form A: the init flow"). Citations ride along so the widget can show its
 * sources again.
 */
function toHistoryMessage(m: HistoryRow) {
  const agent = m.role === 'agent';
  return {
    id: m.id,
    role: m.role === 'user' ? ('user' as const) : ('assistant' as const),
    content: m.content,
    createdAt: m.createdAt.toISOString(),
    citations: (m.citations as Citation[]).map((c) => ({
      index: c.index,
      chunkId: c.chunkId,
      sourceId: c.sourceId,
      title: c.title,
      url: c.url,
    })),
    author: agent
      ? {
          type: 'agent' as const,
          name: m.authorName ?? 'Support agent',
          avatarUrl: m.authorAvatarUrl ?? null,
        }
      : null,
  };
}

export async function history(ctx: AppContext, session: WidgetSession) {
  const conversationId = session.conversationId;
  if (!conversationId) return [];
  const rows = await repo.historyRows(ctx.db, { ...session, conversationId }, HISTORY_LIMIT);
  return rows.map(toHistoryMessage);
}

const chatRefused = (message: string) => new AppError('bad_request:chat', message);

/**
 * The shared chat (docs/api.md "Form A and Form B": Form A's request and stream) up to the point where the
 * stream opens: an ended session is a 400 `bad_request:chat` (no new messages after the end), then
 * the daily quota (429), then the chat engine's own turn (credits, handoff). The conversation
 * is created with the first message and remembered on the session.
 */
export async function startWidgetChat(ctx: AppContext, access: WidgetAccess, content: string): Promise<Turn> {
  const session = sessionOf(access);
  if (session.status === 'ended') throw chatRefused('This chat session has ended; start a new one');
  // Read with the session where the three-layer check could (widget-access.ts).
  const existing = session.conversationId
    ? access.conversation?.id === session.conversationId
      ? access.conversation
      : await findConversation(ctx, access.assistant.workspaceId, session.conversationId)
    : undefined;
  // The visitor writing into a closed conversation of a live session reopens it, and the AI answers
  // again (docs/inbox.md "States"); after the session ended, the widget starts a new session.
  const current =
    existing?.status === 'closed'
      ? ((await changeConversation(ctx, existing, { kind: 'reopen' }, { type: 'visitor', id: null }))
          ?.conversation ?? existing)
      : existing;
  const quota = await countDailyMessage(ctx, access.assistant.id, access.plan);
  const count = uncounted(access.assistant.id, access.plan);
  let turn: Turn;
  try {
    turn = await beginTurn(ctx, {
      assistant: access.assistant,
      plan: access.plan,
      monthlyCredits: access.monthlyCredits,
      conversation: current ?? {
        workspaceId: access.assistant.workspaceId,
        assistantId: access.assistant.id,
        channel: 'widget',
        contactId: session.contactId,
        title: content.slice(0, 80),
      },
      content,
      knowledge: access.knowledge,
      // A new conversation is bound to the session (and counted) in the statement that stores it.
      startTail: repo.sessionBinding(session, count),
    });
  } catch (err) {
    await refundDailyMessage(ctx, quota);
    throw err;
  }
  // The session's activity needs no write of its own: its conversation's last message is part of
  // it (repo.lockIdleSessions), and this turn's message is stored there.
  if (turn.kind === 'handoff') {
    if (count) await countUnlimited(ctx, count);
    return turn;
  }
  // Stored, the new conversation bound with it: an open event stream starts following it
  // (widget-events.routes.ts). An existing conversation's count for a plan without quota is a
  // figure, not a gate: its failure is logged, the reply goes on.
  if (!existing) {
    await ctx.fanout
      .publish(widgetSessionChannel(session.id), { type: 'bound', conversationId: turn.conversation.id })
      .catch(() => undefined);
  } else if (count) {
    await countUnlimited(ctx, count).catch((err: unknown) =>
      ctx.log.warn({ err, assistantId: count.assistantId }, 'widget message not counted'),
    );
  }
  return turn;
}

/** Who ended it: the visitor, the inactivity sweep, or a member closing it from the inbox. */
export type EndReason = 'visitor' | 'inactivity' | 'agent';

const endResult = (s: WidgetSession, messageCount: number) => {
  const endedAt = s.endedAt ?? now();
  return {
    sessionId: s.id,
    status: 'ended' as const,
    messageCount,
    duration: Math.max(0, Math.round((endedAt.getTime() - s.createdAt.getTime()) / 1000)),
    endedAt: endedAt.toISOString(),
  };
};

/**
 * Ends a session inside `tx` (active → ended): its conversation closes
 * and `conversation.ended` is recorded in the same transaction (docs/widget.md "Form A: the init flow": at
 * once). Ending an ended session changes nothing and answers the same result
 * (docs/widget.md "Form A: the init flow").
 */
export async function endSessionIn(
  tx: Executor,
  session: repo.SessionRef,
  reason: EndReason,
  by?: ChangedBy,
): Promise<{ result: ReturnType<typeof endResult>; change?: Changed }> {
  const at = now();
  const ended = await repo.endSession(tx, session, at);
  const found = await repo.findSessionWithCount(tx, session);
  if (!found) throw new AppError('unauthorized:widget', 'Session not found');
  const result = endResult(found.session, found.messageCount);
  if (!ended) return { result };
  const s = found.session;
  const data = {
    ...result,
    conversationId: s.conversationId,
    assistantId: s.assistantId,
    contactId: s.contactId,
    channel: 'widget',
    reason,
  };
  const changedBy: ChangedBy =
    by ?? (reason === 'visitor' ? { type: 'visitor', id: null } : { type: 'system', id: null });
  // The conversation closes with the session, recorded as a change with who made it; its
  // `conversation.ended` carries the session's end result too (docs/inbox.md "States").
  const change = s.conversationId
    ? await applyChange(
        tx,
        { workspaceId: s.workspaceId, id: s.conversationId },
        { kind: 'close' },
        changedBy,
        { data, at },
      )
    : undefined;
  if (!change?.changed) {
    await recordEvent(tx, {
      workspaceId: s.workspaceId,
      type: 'conversation.ended',
      data: { ...data, changedBy },
    });
  }
  return { result, change };
}

/**
 * Ends the live session bound to a conversation, as a member closing it from the inbox does
 * (docs/inbox.md "States"); undefined when it has none or it had ended.
 */
export async function endSessionOfConversationIn(
  tx: Executor,
  conversation: { workspaceId: string; id: string },
  by: ChangedBy,
) {
  const session = await repo.findActiveSessionOfConversation(tx, conversation);
  return session ? { sessionId: session.id, ...(await endSessionIn(tx, session, 'agent', by)) } : undefined;
}

export async function endWidgetSession(ctx: AppContext, access: WidgetAccess) {
  const session = sessionOf(access);
  const { result, change } = await ctx.db.transaction((tx) => endSessionIn(tx, session, 'visitor'));
  await ctx.fanout.publish(widgetSessionChannel(session.id), { type: 'ended' }).catch(() => undefined);
  if (change) await announceChange(ctx, change);
  return result;
}

/** The inactivity sweep (docs/widget.md "Inactivity"): ends up to `batch` idle sessions; returns how many. */
export async function endIdleSessions(ctx: AppContext, batch: number): Promise<number> {
  const ended = await ctx.db.transaction(async (tx) => {
    const locked = await repo.lockIdleSessions(tx, now(), batch);
    const out: Array<{ id: string; change?: Changed }> = [];
    for (const session of locked)
      out.push({ id: session.id, ...(await endSessionIn(tx, session, 'inactivity')) });
    return out;
  });
  // After commit: open widgets learn the session ended (best-effort, like all live delivery).
  await Promise.all(
    ended.map(async ({ id, change }) => {
      await ctx.fanout.publish(widgetSessionChannel(id), { type: 'ended' }).catch(() => undefined);
      if (change) await announceChange(ctx, change);
    }),
  );
  return ended.length;
}
