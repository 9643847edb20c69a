/**
 * Phone numbers, the one definition (docs/contacts-and-tickets.md "Contacts", docs/sms.md): E.164,
 * a plus, a country code that does not start with 0, 7 to 15 digits in all. Contacts, the widget's
 * contact form, the SMS channel and the dashboard's forms all use it. Plain code, no zod, so the
 * dashboard bundles it; the request fields are in phone-fields.ts.
 */
export const E164 = /^\+[1-9]\d{6,14}$/;

export const isE164 = (value: string) => E164.test(value);

/** `+1 (555) 010-2000` → `+15550102000`; null when it is not an E.164 number. */
export function normalizePhone(input: string): string | null {
  const compact = input.trim().replace(/[\s().-]/g, '');
  return isE164(compact) ? compact : null;
}
