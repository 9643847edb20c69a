/**
 * Masking of personal data in a suggestion's question and answer (docs/measuring.md
 * "Suggestions"): the contact's own values first (name, email, phone, custom field values of 3
 * characters or more), then any email address, then any phone number. Pure: no I/O.
 */

export type ContactValues = {
  name?: string | null;
  email?: string | null;
  phone?: string | null;
  customFields?: Record<string, unknown> | null;
};

const EMAIL = /[\p{L}\p{N}._%+'-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/gu;

/**
 * A run of digits with the separators phone numbers are written with; which runs are phone
 * numbers `isPhone` decides. Not inside a word, an email or a decimal ("SKU12345678", "1.5").
 */
const DIGIT_RUN = /(?<![\p{L}\p{N}@.,_])(?:\+|\(\+?)?\d(?:[\d ().\-/]*[\d)])?/gu;
const DATE = /^\d{1,4}[./-]\d{1,2}[./-]\d{1,4}$/;
const NANP = /^\(?\d{3}\)?[ .-]?\d{3}[ .-]\d{4}$/;

/**
 * A phone number: 7 to 15 digits, written internationally (`+` or `00` first) or as a local
 * number with its trunk prefix or area code (`0` or `(` first), or grouped 3-3-4 as in North
 * America. Prices, quantities, years, dates and plain order numbers are not.
 */
export function isPhone(run: string): boolean {
  const digits = run.replace(/\D/g, '').length;
  if (digits < 7 || digits > 15) return false;
  const trimmed = run.trim();
  if (DATE.test(trimmed)) return false;
  if (/^(?:\+|\(\+|00)/.test(trimmed)) return true;
  if (/^[0(]/.test(trimmed) && /[ ().\-/]/.test(trimmed)) return true;
  if (/^0\d+$/.test(trimmed)) return true;
  return NANP.test(trimmed);
}

/** "orderNumber", "order_number", "Order-No." → "order number", "order no". */
export function placeholderOf(fieldName: string): string {
  const words = fieldName
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .toLowerCase()
    .slice(0, 40)
    .trim();
  return `[${words || 'field'}]`;
}

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The contact's values to mask, each with its placeholder; longest first, so that a longer value wins. */
function contactTerms(contact: ContactValues): Array<{ value: string; placeholder: string; exact: boolean }> {
  const terms: Array<{ value: string; placeholder: string; exact: boolean }> = [];
  const add = (value: unknown, placeholder: string, exact = false) => {
    if (typeof value === 'number' && Number.isFinite(value)) value = String(value);
    if (typeof value !== 'string') return;
    const v = value.trim();
    if (v.length >= 3) terms.push({ value: v, placeholder, exact });
  };
  add(contact.email, '[email]');
  add(contact.phone, '[phone]');
  if (contact.name) {
    add(contact.name, '[name]');
    // Each part of the name alone ("Hi Ada"), as written with its capital: "Will" is masked, "will" is not.
    for (const part of contact.name.trim().split(/\s+/)) add(part, '[name]', true);
  }
  for (const [key, value] of Object.entries(contact.customFields ?? {})) {
    const values = Array.isArray(value) ? value : [value];
    for (const v of values.slice(0, 50)) add(v, placeholderOf(key));
  }
  return terms.sort((a, b) => b.value.length - a.value.length);
}

/** One pass over the text, so that a placeholder is never masked again ("[email]" by a field whose value is "email"). */
function maskContact(text: string, contact: ContactValues): string {
  const terms = contactTerms(contact);
  if (terms.length === 0) return text;
  const alternatives = terms.map((t) => literal(t.value)).join('|');
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives})(?![\\p{L}\\p{N}])`, 'giu');
  return text.replace(pattern, (found) => {
    const lower = found.toLocaleLowerCase();
    const term = terms.find((t) => (t.exact ? t.value === found : t.value.toLocaleLowerCase() === lower));
    return term ? term.placeholder : found;
  });
}

/** The text with the contact's values, email addresses and phone numbers replaced by placeholders. */
export function maskText(text: string, contact?: ContactValues | null): string {
  let out = contact ? maskContact(text, contact) : text;
  out = out.replace(EMAIL, '[email]');
  out = out.replace(DIGIT_RUN, (run) => {
    // A run may end in separators that belong to the sentence ("call 030 1234567.").
    const core = run.replace(/[ .\-/(]+$/, '');
    return isPhone(core) ? `[phone]${run.slice(core.length)}` : run;
  });
  return out;
}
