import { z } from 'zod';
import { E164, normalizePhone } from './phone.ts';

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
