import type { Executor } from '../../db/client.ts';
import type { Plan } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { now } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { recordEvent } from '../events/events.service.ts';
import { PLAN_QUOTAS } from '../workspaces/plan.ts';
import * as repo from './contacts.repo.ts';

export type { ContactRow } from './contacts.repo.ts';

/**
 * The public shape of a contact (docs/contacts-and-tickets.md "Contacts"): API responses and `contact.*`
 * events.
 */
export const toContact = (c: repo.ContactRow) => ({
  id: c.id,
  name: c.name,
  email: c.email,
  phone: c.phone,
  customFields: c.customFields,
  source: c.source,
  createdAt: c.createdAt.toISOString(),
  updatedAt: c.updatedAt.toISOString(),
});

export type ContactDetails = {
  name?: string | null;
  /** Validated by the caller; matched case-insensitively. */
  email?: string | null;
  /** E.164, normalised by the caller. */
  phone?: string | null;
  customFields?: Record<string, string>;
};

export type MatchResult = { contact: repo.ContactRow; created: boolean };

/** `+1 (555) 010-2000` → `+15550102000`; null when it is not an E.164 number. */
export function normalizePhone(input: string): string | null {
  const compact = input.trim().replace(/[\s().-]/g, '');
  return /^\+[1-9]\d{6,14}$/.test(compact) ? compact : null;
}

/**
 * Finds the workspace's contact for these details, or creates one (docs/widget.md "Leads and feedback";
 * reusable by the v1 API): matched by email (case-insensitive), else by phone. A match is
 * completed with what it lacks or what changed (`contact.updated`); a new contact counts against
 * the plan quota (403 `plan_limit_reached`) and records `contact.created`. Runs in the caller's
 * transaction, under a per-workspace lock, so two submissions of one email never make two
 * contacts and concurrent creations cannot pass the quota together.
 */
export async function matchOrCreateContact(
  tx: Executor,
  workspace: { workspaceId: string; plan: Plan },
  details: ContactDetails,
  source: string,
): Promise<MatchResult> {
  const { workspaceId } = workspace;
  await repo.lockWorkspaceContacts(tx, workspaceId);
  const email = details.email || null;
  const phone = details.phone || null;
  const match =
    (email ? await repo.findByEmail(tx, workspaceId, email) : undefined) ??
    (phone ? await repo.findByPhone(tx, workspaceId, phone) : undefined);
  const at = now();
  if (match) {
    const patch: Partial<repo.ContactRow> = { updatedAt: at };
    if (details.name && details.name !== match.name) patch.name = details.name;
    // A value another contact already holds stays where it is (uniqueness,
    // docs/contacts-and-tickets.md "Contacts").
    if (email && !match.email && !(await repo.findByEmail(tx, workspaceId, email, match.id)))
      patch.email = email;
    if (phone && phone !== match.phone && !(await repo.findByPhone(tx, workspaceId, phone, match.id))) {
      patch.phone = phone;
    }
    if (details.customFields && Object.keys(details.customFields).length > 0) {
      patch.customFields = { ...match.customFields, ...details.customFields };
    }
    const contact = (await repo.updateContact(tx, workspaceId, match.id, patch)) ?? match;
    await recordEvent(tx, { workspaceId, type: 'contact.updated', data: toContact(contact) });
    return { contact, created: false };
  }
  const quota = PLAN_QUOTAS[workspace.plan].contacts;
  if (quota !== null && (await repo.countContacts(tx, workspaceId)) >= quota) {
    throw new AppError('plan_limit_reached', `This plan includes ${quota} CRM contacts`, {
      resource: 'contacts',
      limit: quota,
    });
  }
  const contact = await repo.insertContact(tx, {
    id: newId('ct'),
    workspaceId,
    name: details.name || null,
    email,
    phone,
    customFields: details.customFields ?? {},
    source,
    createdAt: at,
    updatedAt: at,
  });
  await recordEvent(tx, { workspaceId, type: 'contact.created', data: toContact(contact) });
  return { contact, created: true };
}
