/**
 * CSV as RFC 4180 writes it, safe to open in a spreadsheet (docs/analytics.md "Service"): a field
 * with a comma, a quote or a line break is quoted (its quotes doubled), and a field a spreadsheet
 * would run as a formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage return) is prefixed
 * with `'` so it is shown as text (OWASP's "CSV injection" advice).
 */

const FORMULA = /^[=+\-@\t\r]/;

export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = FORMULA.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Lines ended with CRLF, the header first. */
export function toCsv(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number | null>>) {
  return [header, ...rows].map((r) => `${r.map(csvField).join(',')}\r\n`).join('');
}
