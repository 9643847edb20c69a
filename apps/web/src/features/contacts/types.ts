import type { contactSchema } from '@parley/contract/contacts';
import type { z } from 'zod';
import { ApiError } from '../../api.ts';

/** Contacts as the API answers them (docs/contacts-and-tickets.md "Contacts"; type-only). */
export type Contact = z.output<typeof contactSchema>;

export const contactsPath = (ws: string) => `/api/workspaces/${ws}/contacts`;

/**
 * The API's refusals of a create or change, said for people: a duplicate (409 naming the field)
 * and a full plan quota (403 `plan_limit_reached` with `{resource, limit}`); anything else keeps
 * the API's own words.
 */
export function explain(error: unknown, what: 'contacts' | 'tickets'): unknown {
  if (!(error instanceof ApiError)) return error;
  if (error.status === 409 && what === 'contacts') {
    const fields = Object.keys(error.details ?? {}).filter((k) => k === 'email' || k === 'phone');
    const which = fields.length ? fields.join(' and ') : 'email or phone';
    return new Error(
      `Another contact already has this ${which}. Search for it and edit that contact instead.`,
    );
  }
  if (error.code === 'plan_limit_reached') {
    const limit = error.details?.limit;
    return new Error(
      `Plan limit reached: this workspace's plan includes ${limit ?? 'no more'} ${what}. Delete some or upgrade the plan to add more.`,
    );
  }
  return error;
}
