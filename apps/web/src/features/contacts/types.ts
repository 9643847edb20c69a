import type { contactSchema } from '@parley/contract/contacts';
import type { z } from 'zod';
import { ApiError } from '../../api.ts';
import { i18n } from '../../i18n/index.ts';

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
    const t = i18n.getFixedT(null, 'contacts');
    const which = fields.length
      ? fields.map((f) => t(`errors.${f as 'email' | 'phone'}`)).join(` ${t('errors.and')} `)
      : t('errors.emailOrPhone');
    return new Error(t('errors.duplicate', { which }));
  }
  if (error.code === 'plan_limit_reached') {
    const t = i18n.getFixedT(null, 'contacts');
    const limit = error.details?.limit;
    return new Error(
      t('errors.planLimit', { limit: limit ?? t('errors.noMore'), what: t(`errors.${what}`) }),
    );
  }
  return error;
}
