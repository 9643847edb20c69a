/**
 * The API's request and response types, for the dashboard (apps/web) and the widget
 * (apps/widget): each is inferred from the Zod schema the server validates and serialises with,
 * so a client cannot drift from the server (docs/dashboard.md "Types shared with the server").
 *
 * Clients import this module with `import type` only: nothing here reaches a browser bundle.
 * Response types are what the client reads (`z.output`), request bodies what it sends
 * (`z.input`: defaults may be left out).
 */
import type { z } from 'zod';
import type { changePasswordBody, patchAccountBody } from './account.ts';
import type { apiKeySchema, createdApiKeySchema } from './api-keys.ts';
import type { assistantListItem, assistantSchema } from './assistants.ts';
import type { createdTokenSchema, tokenSchema, userSchema } from './auth.ts';
import type { billingSchema } from './billing.ts';
import type { chatBody, conversationSchema, messageSchema } from './chat.ts';
import type { dataOf, errorBody } from './envelope.ts';
import type { FORMAT_A_EVENTS } from './events.ts';
import type { cursorPage, offsetPage } from './pagination.ts';
import type { createSourceBody, searchResult, sourceSchema } from './sources.ts';
import type { createdWebhookSchema, deliverySchema, webhookSchema } from './webhooks.ts';
import type { historyMessage, initData, publicConfig, sessionData } from './widget.ts';
import type { widgetConfigPatch, widgetSettings } from './widget-config.ts';
import type {
  acceptedSchema,
  createdInvitationSchema,
  createInvitationBody,
  invitationSchema,
  memberSchema,
  workspaceDetailSchema,
  workspaceSchema,
} from './workspaces.ts';

export type { Plan } from './plans.ts';
export type { Scope } from './scopes.ts';
export type { StreamEvent } from './stream-events.ts';

/** `{data: resource}`, the two list envelopes, and every error body (docs/api.md). */
export type Data<T> = z.output<ReturnType<typeof dataOf<z.ZodType<T>>>>;
export type OffsetPage<T> = z.output<ReturnType<typeof offsetPage<z.ZodType<T>>>>;
export type CursorPage<T> = z.output<ReturnType<typeof cursorPage<z.ZodType<T>>>>;
export type ErrorBody = z.output<typeof errorBody>;

// Accounts and workspaces
export type User = z.output<typeof userSchema>;
export type Theme = User['preferences']['theme'];
export type PatchAccountInput = z.input<typeof patchAccountBody>;
export type ChangePasswordInput = z.input<typeof changePasswordBody>;
export type PersonalToken = z.output<typeof tokenSchema>;
export type CreatedPersonalToken = z.output<typeof createdTokenSchema>;
export type Workspace = z.output<typeof workspaceSchema>;
export type WorkspaceDetail = z.output<typeof workspaceDetailSchema>;
export type Role = Workspace['role'];
export type Member = z.output<typeof memberSchema>;
export type Invitation = z.output<typeof invitationSchema>;
export type CreatedInvitation = z.output<typeof createdInvitationSchema>;
export type InvitationInput = z.input<typeof createInvitationBody>;
export type AcceptedInvitation = z.output<typeof acceptedSchema>;
export type ApiKey = z.output<typeof apiKeySchema>;
export type CreatedApiKey = z.output<typeof createdApiKeySchema>;
export type Billing = z.output<typeof billingSchema>;

// Assistants, knowledge and chat
export type Assistant = z.output<typeof assistantSchema>;
export type AssistantItem = z.output<typeof assistantListItem>;
export type Source = z.output<typeof sourceSchema>;
export type SourceType = Source['type'];
export type CreateSourceInput = z.input<typeof createSourceBody>;
export type WebsiteMode = NonNullable<Extract<CreateSourceInput, { type: 'website' }>['mode']>;
export type SearchHit = z.output<typeof searchResult>;
export type ChatInput = z.input<typeof chatBody>;
export type Conversation = z.output<typeof conversationSchema>;
export type Message = z.output<typeof messageSchema>;
export type Citation = Message['citations'][number];
export type ToolStep = Message['toolCalls'][number];

// Webhooks (Format A)
export type Webhook = z.output<typeof webhookSchema>;
export type CreatedWebhook = z.output<typeof createdWebhookSchema>;
export type Delivery = z.output<typeof deliverySchema>;
/** Format A's event names, the ones a webhook subscribes to (`*` aside). */
export type WebhookEvent = (typeof FORMAT_A_EVENTS)[number];

// The widget: its settings in the dashboard, and the public Form A API the script calls
export type WidgetSettings = z.output<typeof widgetSettings>;
export type WidgetSettingsPatch = z.input<typeof widgetConfigPatch>;
export type PublicWidgetConfig = z.output<typeof publicConfig>;
export type HistoryMessage = z.output<typeof historyMessage>;
export type WidgetSession = z.output<typeof sessionData>;
export type WidgetInit = z.output<typeof initData>;
