import { z } from 'zod';
import { idParam } from './envelope.ts';
import { LANGUAGES } from './languages.ts';
import { phoneField as phone } from './phone-fields.ts';
import { WIDGET_STRING_KEYS, type WidgetStringKey } from './widget-strings/keys.ts';

/** Request and response shapes of the public widget (docs/widget.md). */

const text = (max: number) => z.string().max(max);

/** docs/widget.md "Form A: the init flow": `metadata` (object: `page`, `referrer`, `userAgent`). */
export const metadata = z.strictObject({
  page: text(2000).optional(),
  referrer: text(2000).optional(),
  userAgent: text(1000).optional(),
});

/**
 * The visitor's languages in order of preference, as the browser's `navigator.languages` gives
 * them (BCP 47 tags such as `es-MX`); docs/languages.md "Widget".
 */
export const visitorLanguages = z.array(z.string().trim().min(1).max(35)).max(20);

/** Form A init: `sessionId` null (or absent) creates a session; a string resumes it. */
export const initBody = z.strictObject({
  sessionId: idParam.nullable().optional(),
  metadata: metadata.optional(),
  languages: visitorLanguages.optional(),
});

/**
 * Form B `GET /config?languages=es-MX,es`: the same list, comma-separated (docs/languages.md
 * "Widget").
 */
export const configQuery = z.strictObject({
  languages: z
    .string()
    .max(400)
    .transform((list) =>
      list
        .split(',')
        .map((tag) => tag.trim())
        .filter(Boolean),
    )
    .pipe(visitorLanguages)
    .optional(),
});

/** Form B `POST /session` `{metadata?}`. */
export const sessionBody = z.strictObject({ metadata: metadata.optional() });

/** The one chat body of both forms (docs/api.md "Form A and Form B": Form A's). */
export const chatBody = z.strictObject({
  content: z.string().trim().min(1).max(8000),
  sessionId: idParam,
});

const email = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email({ message: 'Must be a valid email address' }));

/**
 * docs/widget.md "Leads and feedback"; custom field keys are checked against the configuration by the
 * service.
 */
export const leadFields = {
  name: z.string().trim().min(1).max(200).optional(),
  email: email.optional(),
  phone: phone.optional(),
  customFields: z.record(z.string().min(1).max(64), z.string().trim().max(2000)).optional(),
};
export const leadBody = z.strictObject(leadFields);
export const leadBodyB = z.strictObject({ sessionId: idParam, ...leadFields });

/**
 * docs/widget.md "Leads and feedback": `rating` `positive` or `negative`; without `messageId` it is about the
 * session.
 */
export const feedbackFields = {
  messageId: idParam.optional(),
  rating: z.enum(['positive', 'negative']),
  comment: z.string().trim().max(2000).optional(),
};
export const feedbackBody = z.strictObject(feedbackFields);
export const feedbackBodyB = z.strictObject({ sessionId: idParam, ...feedbackFields });

/** docs/widget.md "Form B: the path list": `POST /api/widget/tickets/create`. */
export const ticketBody = z.strictObject({
  assistantId: idParam,
  sessionId: idParam,
  subject: z.string().trim().min(1).max(200),
  description: z.string().trim().min(1).max(10_000),
  email: email.optional(),
});

export const historyQuery = z.strictObject({ sessionId: idParam });

export const assistantParams = z.object({ assistantId: idParam });
export const sessionParams = z.object({ assistantId: idParam, sessionId: idParam });

/** docs/widget.md "Form A: the init flow": what the page may know (never the allowlist). */
export const publicConfig = z.object({
  assistantName: z.string(),
  welcomeMessage: z.string().nullable(),
  primaryColor: z.string(),
  position: z.enum(['bottom-right', 'bottom-left']),
  leadFormEnabled: z.boolean(),
  leadFormFields: z.array(z.string()),
  leadFormRequiredFields: z.array(z.string()),
  /** docs/business-hours.md "Widget": whether a person answers now (true when no hours are set). */
  teamOnline: z.boolean(),
  /** When the team opens next (ISO time); null while open, when always open, or with no opening. */
  nextOpenAt: z.string().nullable(),
  /**
   * docs/languages.md "Widget": the first supported match in the visitor's languages, then in
   * `Accept-Language`, else the workspace's default language.
   */
  language: z.enum(LANGUAGES),
  direction: z.enum(['ltr', 'rtl']),
  /** Every visible string of the widget in `language`, the owner's overrides applied. */
  strings: z.object(
    Object.fromEntries(WIDGET_STRING_KEYS.map((key) => [key, z.string()])) as Record<
      WidgetStringKey,
      z.ZodString
    >,
  ),
});

/** A person of the team, as the widget shows them. */
export const agentSchema = z.object({
  type: z.literal('agent'),
  name: z.string(),
  avatarUrl: z.string().nullable(),
});

/** A history message, with citations and, for a human agent's reply, its author (docs/widget.md). */
export const historyMessage = z.object({
  id: z.string(),
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  createdAt: z.string(),
  citations: z.array(
    z.object({
      index: z.number(),
      chunkId: z.string(),
      sourceId: z.string(),
      title: z.string().nullable(),
      url: z.string().nullable(),
    }),
  ),
  author: agentSchema.nullable(),
});

export const initData = z.object({
  sessionId: z.string(),
  sessionToken: z.string(),
  status: z.enum(['active', 'ended']),
  config: publicConfig,
  messages: z.array(historyMessage),
});

export const sessionData = z.object({ sessionId: z.string(), sessionToken: z.string() });

/** The end result (docs/widget.md "Form A: the init flow"); `duration` in seconds. */
export const endResult = z.object({
  sessionId: z.string(),
  status: z.literal('ended'),
  messageCount: z.number().int(),
  duration: z.number().int(),
  endedAt: z.string(),
});

/**
 * One event of `GET /api/widget/{id}/sessions/{sid}/events` (docs/widget.md "Live agent replies"):
 * a person's reply, who is answering now (the agent while a person holds the conversation), or
 * the session's end.
 */
export const widgetLiveEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('message'), message: historyMessage }),
  z.object({
    type: z.literal('status'),
    status: z.enum(['open', 'handoff', 'closed']),
    agent: agentSchema.nullable(),
  }),
  z.object({
    type: z.literal('ended'),
    /** The satisfaction question, when the conversation asks for a rating (docs/csat.md). */
    csat: z.object({ question: z.string() }).optional(),
  }),
]);
export type WidgetLiveEvent = z.output<typeof widgetLiveEventSchema>;
