import { z } from 'zod';

/**
 * Phone numbers, the one definition (docs/contacts-and-tickets.md "Contacts", docs/sms.md): E.164,
 * a plus, a country code that does not start with 0, 7 to 15 digits in all. Contacts, the widget's
 * contact form and the SMS channel all use it. Imports nothing of the server: request schemas use
 * it, and the widget's and dashboard's type checks read those schemas.
 */
export const E164 = /^\+[1-9]\d{6,14}$/;

export const isE164 = (value: string) => E164.test(value);

/** `+1 (555) 010-2000` → `+15550102000`; null when it is not an E.164 number. */
export function normalizePhone(input: string): string | null {
  const compact = input.trim().replace(/[\s().-]/g, '');
  return isE164(compact) ? compact : null;
}

/** A phone field typed by a person: spaces, dots, dashes and parentheses allowed, stored as E.164. */
export const phoneField = z
  .string()
  .max(40)
  .transform((v, ctx) => {
    const normalized = normalizePhone(v);
    if (!normalized) {
      ctx.addIssue({ code: 'custom', message: 'Must be a phone number in E.164 form, e.g. +14155550100' });
      return z.NEVER;
    }
    return normalized;
  });

/** A number exactly as a provider writes it (no spacing to normalise). */
export const e164Field = z.string().regex(E164, 'An E.164 number such as +15550102000');
