import type { AppContext } from '../../context.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import { now } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { type ContactDetails, matchOrCreateContact, toContact } from '../contacts/contacts.service.ts';
import { setConversationContact } from '../conversations/conversations.service.ts';
import { recordEvent } from '../events/events.service.ts';
import { createTicket } from '../tickets/tickets.service.ts';
import * as repo from './widget.repo.ts';
import type { WidgetAccess, WidgetConfig, WidgetSession } from './widget-access.ts';

/**
 * What a visitor leaves behind besides messages: the lead form, feedback, and (Form B) a ticket
 * (docs/widget.md "Leads and feedback").
 */

export type LeadInput = ContactDetails & { customFields?: Record<string, string> };
export type FeedbackInput = { messageId?: string; rating: 'positive' | 'negative'; comment?: string };
export type TicketInput = { subject: string; description: string; email?: string };

/** The lead form's built-in fields; every other configured field is a custom field. */
export const STANDARD_LEAD_FIELDS = ['name', 'email', 'phone'] as const;
const isStandard = (f: string) => (STANDARD_LEAD_FIELDS as readonly string[]).includes(f);

const sessionOf = (access: WidgetAccess): WidgetSession => {
  if (!access.session) throw new AppError('unauthorized:widget', 'A valid widget session token is required');
  return access.session;
};

/**
 * The lead against the widget's configuration (docs/widget.md "Leads and feedback"): custom keys must be
 * configured fields (else 400 naming them), required fields must be filled, and a lead names the person
 * somehow (a name, an email or a phone number).
 */
export function checkLead(config: WidgetConfig, lead: LeadInput): void {
  const details: Record<string, string> = {};
  const custom = new Set(config.leadFormFields.filter((f) => !isStandard(f)));
  for (const key of Object.keys(lead.customFields ?? {})) {
    if (!custom.has(key)) details[`customFields.${key}`] = 'Unknown field';
  }
  for (const field of config.leadFormRequiredFields) {
    const value = isStandard(field)
      ? lead[field as (typeof STANDARD_LEAD_FIELDS)[number]]
      : lead.customFields?.[field];
    if (!value) details[isStandard(field) ? field : `customFields.${field}`] = 'Required';
  }
  if (!lead.name && !lead.email && !lead.phone && Object.keys(details).length === 0) {
    details._ = 'Give at least a name, an email address or a phone number';
  }
  if (Object.keys(details).length > 0) throw badRequest('Validation failed', details);
}

/**
 * The lead form (docs/widget.md: a session is anonymous until a lead links it to a contact): the contact is
 * matched or created (contacts.service), the session and its conversation are linked to it, and
 * `lead.captured` is recorded next to `contact.created` / `contact.updated`, all in one
 * transaction (docs/webhooks.md "Event names": Format A sees the contact events, Format B `lead.captured`).
 */
export async function captureLead(ctx: AppContext, access: WidgetAccess, lead: LeadInput) {
  const session = sessionOf(access);
  checkLead(access.config, lead);
  const workspaceId = access.assistant.workspaceId;
  return ctx.db.transaction(async (tx) => {
    const at = now();
    const { contact, created } = await matchOrCreateContact(
      tx,
      { workspaceId, plan: access.plan },
      lead,
      'widget',
    );
    await repo.linkContact(tx, session, contact.id);
    await repo.touchSession(tx, session, at);
    if (session.conversationId) {
      await setConversationContact(tx, workspaceId, session.conversationId, contact.id, at);
    }
    await recordEvent(tx, {
      workspaceId,
      type: 'lead.captured',
      data: {
        contact: toContact(contact),
        contactCreated: created,
        sessionId: session.id,
        assistantId: access.assistant.id,
        conversationId: session.conversationId,
        capturedAt: at.toISOString(),
      },
    });
    return { contactId: contact.id };
  });
}

/**
 * Thumbs up or down (docs/widget.md "Leads and feedback"). With `messageId` it must be an AI or agent reply
 * of this session (else 404); without it the feedback is about the whole session.
 */
export async function leaveFeedback(ctx: AppContext, access: WidgetAccess, input: FeedbackInput) {
  const session = sessionOf(access);
  if (input.messageId) {
    const conversationId = session.conversationId;
    const found = conversationId
      ? await repo.findReplyMessage(ctx.db, { ...session, conversationId }, input.messageId)
      : undefined;
    if (!found) throw notFound('Message');
  }
  const row = await repo.insertFeedback(ctx.db, {
    id: newId('fb'),
    workspaceId: session.workspaceId,
    sessionId: session.id,
    messageId: input.messageId ?? null,
    rating: input.rating === 'positive' ? 'up' : 'down',
    comment: input.comment || null,
    createdAt: now(),
  });
  return { id: row.id };
}

/**
 * Form B `POST /api/widget/tickets/create` (docs/widget.md "Form B: the path list"): a ticket for the
 * session's contact (or for the contact the optional email finds or creates), linked to its conversation,
 * within the plan's ticket quota (403 `plan_limit_reached`).
 */
export async function openTicket(ctx: AppContext, access: WidgetAccess, input: TicketInput) {
  const session = sessionOf(access);
  const workspace = { workspaceId: session.workspaceId, plan: access.plan };
  let contactId = session.contactId;
  if (!contactId && input.email) {
    const email = input.email;
    contactId = await ctx.db.transaction(async (tx) => {
      const { contact } = await matchOrCreateContact(tx, workspace, { email }, 'widget');
      await repo.linkContact(tx, session, contact.id);
      return contact.id;
    });
  }
  const ticket = await createTicket(ctx, workspace, {
    subject: input.subject,
    description: input.description,
    contactId,
    conversationId: session.conversationId,
  });
  return { ticketId: ticket.id };
}
