/**
 * Phone numbers as contacts store them. Imports nothing: request schemas use it, and the widget's
 * and dashboard's type checks read those schemas without the server's runtime modules.
 */

/** `+1 (555) 010-2000` → `+15550102000`; null when it is not an E.164 number. */
export function normalizePhone(input: string): string | null {
  const compact = input.trim().replace(/[\s().-]/g, '');
  return /^\+[1-9]\d{6,14}$/.test(compact) ? compact : null;
}
