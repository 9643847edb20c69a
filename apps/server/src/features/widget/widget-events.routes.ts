import type { agentSchema, WidgetLiveEvent } from '@parley/contract/widget';
import { sessionParams } from '@parley/contract/widget';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Feature } from '../../http/feature.ts';
import { openEventStream } from '../../http/sse.ts';
import { resourceOf } from '../../http/tenant.ts';
import { trackStream } from '../../lib/metrics.ts';
import { agentOf } from '../conversations/conversation-states.ts';
import { conversationChannel, findConversation } from '../conversations/conversations.service.ts';
import { csatQuestionFor } from '../csat/csat.service.ts';
import { corsHeaders } from './widget-access.ts';
import { widgetSessionChannel } from './widget-live.ts';
import { tokenSecurity } from './widget-surface.ts';

type Live =
  | {
      type: 'message';
      message: { id: string; role: string; content: string; createdAt: string };
      authorName?: string | null;
    }
  | { type: 'bound'; conversationId: string }
  | { type: 'ended' }
  | { type: 'status'; status: ConversationStatus; agent: Agent | null };

type Agent = z.output<typeof agentSchema>;
type ConversationStatus = Extract<WidgetLiveEvent, { type: 'status' }>['status'];

/** One encoding per published message, shared by every stream of the app that receives it. */
function encode(ctx: AppContext, payload: Live): string | null {
  const encoded = ctx.streamEncodings.widget;
  const known = encoded.get(payload);
  if (known !== undefined) return known;
  let out: WidgetLiveEvent | null = null;
  if (payload.type === 'message' && payload.message.role === 'agent') {
    const m = payload.message;
    // docs/widget.md "Form A: the init flow": the widget's history roles are user and assistant; a human's
    // reply is an `assistant` message with an `author`.
    out = {
      type: 'message',
      message: {
        id: m.id,
        role: 'assistant',
        content: m.content,
        createdAt: m.createdAt,
        citations: [],
        author: { type: 'agent', name: payload.authorName ?? 'Support agent', avatarUrl: null },
      },
    };
  } else if (payload.type === 'status') {
    out = statusEvent(payload.status, payload.agent);
  }
  const json = out ? JSON.stringify(out) : null;
  encoded.set(payload, json);
  return json;
}

/**
 * Who is answering (docs/widget.md "Live agent replies"): `handoff` with the agent once a person
 * holds the conversation, `open` when it is back with the AI, `closed` when a member closed it.
 */
const statusEvent = (status: ConversationStatus, agent: Agent | null): WidgetLiveEvent => ({
  type: 'status',
  status,
  agent: status === 'handoff' ? agent : null,
});

/**
 * `GET /api/widget/{id}/sessions/{sid}/events` (docs/widget.md "Live agent replies"): server-sent events
 * carrying human agents' replies to an open widget as they are posted, on any instance (lib/fanout.ts), and
 * `{type: "ended"}` when the session ends (with `csat: {question}` when the conversation asks for a rating). Same three-layer check as every widget route; GET, so
 * it does not count against the per-IP POST budget. Messages missed while disconnected are in the
 * history.
 */
export const widgetEventsRoutes: Feature = (app, ctx) => {
  app.get(
    '/api/widget/:assistantId/sessions/:sessionId/events',
    {
      config: { auth: 'widget', widgetToken: 'required' },
      schema: {
        tags: ['widget (Form A)'],
        description:
          'Server-sent events for an open widget: `{type: "message", message}` (a human agent\'s reply, as a history message), `{type: "status", status, agent}` (a person took over: `handoff` with the agent\'s name; back with the AI: `open`; `closed`) and `{type: "ended"}`.',
        params: sessionParams,
        security: tokenSecurity,
        response: { 200: z.string().describe('text/event-stream') },
      },
    },
    async (request, reply) => {
      const access = resourceOf(request, 'widget');
      const session = access.session;
      const sessionId = request.params.sessionId;
      const stream = openEventStream(reply, corsHeaders(access.origin), ctx.config.ai.keepAliveMs);
      trackStream(ctx.metrics, 'widget', stream);
      const unsubscribes: Array<() => void> = [];
      let closed = false;
      stream.onClose(() => {
        closed = true;
        for (const off of unsubscribes.splice(0)) off();
      });
      // A subscription that completes after the visitor left is dropped at once.
      const keep = (off: () => void) => (closed ? off() : unsubscribes.push(off));
      let following: string | null = null;
      let ending = false;
      const deliver = (payload: unknown) => {
        // After `ended` nothing more is said (its question may still be being read).
        if (ending) return;
        if ((payload as Live).type === 'ended') return void sendEnded();
        const json = encode(ctx, payload as Live);
        if (json) stream.sendEncoded(json);
      };
      // The last event, with the satisfaction question when the conversation asks one (docs/csat.md).
      const sendEnded = async () => {
        ending = true;
        const id = following ?? session?.conversationId;
        const c = id
          ? await findConversation(ctx, access.assistant.workspaceId, id).catch(() => undefined)
          : undefined;
        const question = c ? await csatQuestionFor(ctx.db, c).catch(() => null) : null;
        stream.send(question ? { type: 'ended', csat: { question } } : { type: 'ended' });
        stream.end();
      };
      const follow = async (conversationId: string) => {
        if (following === conversationId) return;
        following = conversationId;
        keep(await ctx.fanout.subscribe(conversationChannel(conversationId), deliver));
      };
      keep(
        await ctx.fanout.subscribe(widgetSessionChannel(sessionId), (payload) => {
          const live = payload as Live;
          if (live.type === 'bound') void follow(live.conversationId);
          else deliver(payload);
        }),
      );
      if (session?.conversationId) {
        await follow(session.conversationId);
        // A widget that opens while a person holds the conversation learns it at once.
        const current = await findConversation(ctx, access.assistant.workspaceId, session.conversationId);
        if (current?.status === 'handoff' && session.status !== 'ended') {
          stream.send(statusEvent('handoff', await agentOf(ctx, current.assigneeId)));
        }
      }
      // A session already ended has nothing more to say.
      if (session?.status === 'ended') await sendEnded();
      return reply;
    },
  );
};
