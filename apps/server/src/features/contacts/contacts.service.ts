import type { Plan } from '@parley/contract/plans';
import type { AppContext } from '../../context.ts';
import { type Executor, isUniqueViolation } from '../../db/client.ts';
import { AppError, badRequest, conflict, notFound } from '../../http/errors.ts';
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
  labels: c.labels,
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
  await assertContactQuota(tx, workspace);
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

export type Workspace = { workspaceId: string; plan: Plan };

/**
 * 403 `plan_limit_reached` when the workspace's contacts already fill its plan's quota (docs/api.md
 * "Plans"). Call under `lockWorkspaceContacts`, in the transaction that inserts: every path that
 * creates a contact does, so the count is exact under concurrent creation.
 */
export async function assertContactQuota(tx: Executor, workspace: Workspace): Promise<void> {
  const quota = PLAN_QUOTAS[workspace.plan].contacts;
  if (quota !== null && (await repo.countContacts(tx, workspace.workspaceId)) >= quota) {
    throw new AppError('plan_limit_reached', `This plan includes ${quota} CRM contacts`, {
      resource: 'contacts',
      limit: quota,
    });
  }
}

/** A new contact's fields (validated by the route schema; phone already E.164). */
export type NewContact = {
  name?: string | null;
  email?: string | null;
  phone?: string | null;
  customFields?: Record<string, string>;
};

/** A change: null clears a field; in `customFields` a null value removes that key (JSON merge patch). */
export type ContactPatch = {
  name?: string | null;
  email?: string | null;
  phone?: string | null;
  customFields?: Record<string, string | null>;
};

const NAMES_NOBODY = 'Give at least a name, an email address or a phone number';

/** 409 when another contact of the workspace holds the email (case-insensitive) or the phone. */
async function assertUnique(
  tx: Executor,
  workspaceId: string,
  values: { email?: string | null; phone?: string | null },
  exceptId?: string,
) {
  const details: Record<string, string> = {};
  if (values.email && (await repo.findByEmail(tx, workspaceId, values.email, exceptId))) {
    details.email = 'Another contact already has this email address';
  }
  if (values.phone && (await repo.findByPhone(tx, workspaceId, values.phone, exceptId))) {
    details.phone = 'Another contact already has this phone number';
  }
  if (Object.keys(details).length > 0) throw conflict('A contact with these details already exists', details);
}

/** A unique index caught what the checks did not (a writer outside the lock): still a 409, never a 500. */
async function uniquely<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('A contact with these details already exists');
    throw err;
  }
}

/**
 * Creates a contact from the API (docs/contacts-and-tickets.md "Endpoints"): it must name the person
 * somehow (400), fit the plan's quota (403 `plan_limit_reached`) and hold an email and phone no other
 * contact holds (409), in that order. Records `contact.created` in the same transaction.
 */
export async function createContact(
  ctx: AppContext,
  workspace: Workspace,
  input: NewContact,
  source: string,
) {
  if (!input.name && !input.email && !input.phone) throw badRequest('Validation failed', { _: NAMES_NOBODY });
  const { workspaceId } = workspace;
  return uniquely(() =>
    ctx.db.transaction(async (tx) => {
      await repo.lockWorkspaceContacts(tx, workspaceId);
      await assertContactQuota(tx, workspace);
      await assertUnique(tx, workspaceId, input);
      const at = now();
      const contact = await repo.insertContact(tx, {
        id: newId('ct'),
        workspaceId,
        name: input.name || null,
        email: input.email || null,
        phone: input.phone || null,
        customFields: input.customFields ?? {},
        source,
        createdAt: at,
        updatedAt: at,
      });
      await recordEvent(tx, { workspaceId, type: 'contact.created', data: toContact(contact) });
      return contact;
    }),
  );
}

/**
 * Changes a contact (docs/contacts-and-tickets.md "Endpoints"). A change that leaves it unchanged
 * records nothing; otherwise `updatedAt` moves and `contact.updated` is recorded in the same
 * transaction. 400 if it would name nobody, 409 on an email or phone another contact holds.
 */
export async function updateContact(ctx: AppContext, workspaceId: string, id: string, patch: ContactPatch) {
  return uniquely(() =>
    ctx.db.transaction(async (tx) => {
      await repo.lockWorkspaceContacts(tx, workspaceId);
      const current = await repo.findContact(tx, workspaceId, id);
      if (!current) throw notFound('Contact');
      const next: Partial<repo.ContactRow> = {};
      for (const key of ['name', 'email', 'phone'] as const) {
        const value = patch[key];
        if (value === undefined) continue;
        const normalized = value === '' ? null : value;
        if (normalized !== current[key]) next[key] = normalized;
      }
      if (patch.customFields) {
        const merged: Record<string, unknown> = { ...current.customFields };
        for (const [key, value] of Object.entries(patch.customFields)) {
          if (value === null) delete merged[key];
          else merged[key] = value;
        }
        if (JSON.stringify(merged) !== JSON.stringify(current.customFields)) next.customFields = merged;
      }
      if (Object.keys(next).length === 0) return current;
      const after = { ...current, ...next };
      if (!after.name && !after.email && !after.phone)
        throw badRequest('Validation failed', { _: NAMES_NOBODY });
      await assertUnique(tx, workspaceId, { email: next.email, phone: next.phone }, id);
      const contact = await repo.updateContact(tx, workspaceId, id, { ...next, updatedAt: now() });
      if (!contact) throw notFound('Contact');
      await recordEvent(tx, { workspaceId, type: 'contact.updated', data: toContact(contact) });
      return contact;
    }),
  );
}

/**
 * Deletes a contact (docs/contacts-and-tickets.md "Endpoints"): its tickets, conversations and widget
 * sessions keep existing and lose the link. No event: the decided vocabulary has no deletion name
 * (docs/decisions/0012-contacts-and-tickets.md).
 */
export async function deleteContact(ctx: AppContext, workspaceId: string, id: string): Promise<void> {
  if (!(await repo.deleteContact(ctx.db, workspaceId, id))) throw notFound('Contact');
}

export const findContact = (ctx: AppContext, workspaceId: string, id: string) =>
  repo.findContact(ctx.db, workspaceId, id);

export const listContacts = (
  ctx: AppContext,
  workspaceId: string,
  filter: repo.ContactFilter,
  page: { limit: number; offset: number },
) => repo.listContacts(ctx.db, workspaceId, filter, page);
