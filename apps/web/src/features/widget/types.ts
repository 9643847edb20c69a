import type { WidgetSettings, WidgetSettingsPatch } from '@parley/contract/api-types';
import { ApiError } from '../../api.ts';

/** The widget configuration of an assistant as the API answers it (docs/widget.md; the server's type). */
export type WidgetConfig = WidgetSettings;
export type Position = WidgetConfig['position'];

/** The form as typed, before it becomes a PATCH body (lists are edited as text). */
export type Draft = {
  isEnabled: boolean;
  primaryColor: string;
  position: Position;
  welcomeMessage: string;
  allowedDomains: string;
  leadFormEnabled: boolean;
  leadFormFields: string;
  leadFormRequiredFields: string[];
  sessionTimeoutMinutes: string;
};

export const DEFAULT_COLOR = '#4f46e5';

export const toDraft = (c: WidgetConfig): Draft => ({
  isEnabled: c.isEnabled,
  primaryColor: c.primaryColor,
  position: c.position,
  welcomeMessage: c.welcomeMessage ?? '',
  allowedDomains: c.allowedDomains.join('\n'),
  leadFormEnabled: c.leadFormEnabled,
  leadFormFields: c.leadFormFields.join(', '),
  leadFormRequiredFields: c.leadFormRequiredFields,
  sessionTimeoutMinutes: String(c.sessionTimeoutMinutes),
});

/** Keys typed as "name, email, company" (commas, spaces or new lines between them). */
export const splitKeys = (text: string) => [...new Set(text.split(/[\s,]+/).filter(Boolean))];

export const splitLines = (text: string) =>
  text
    .split(/[\n,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

/** The PATCH body: every field, so what is shown is exactly what is saved. */
export function toBody(d: Draft): WidgetSettingsPatch {
  const fields = splitKeys(d.leadFormFields);
  const welcome = d.welcomeMessage.trim();
  return {
    isEnabled: d.isEnabled,
    primaryColor: d.primaryColor.trim(),
    position: d.position,
    welcomeMessage: welcome || null,
    allowedDomains: splitLines(d.allowedDomains),
    leadFormEnabled: d.leadFormEnabled,
    leadFormFields: fields,
    // A key taken out of the fields is no longer required either.
    leadFormRequiredFields: d.leadFormRequiredFields.filter((f) => fields.includes(f)),
    sessionTimeoutMinutes: Number(d.sessionTimeoutMinutes),
  };
}

/**
 * A refused save, split for the form: the allowed domains' refusals (`allowedDomains.1`: "“shop
 * example” is not a website address: …") to show at that field, and the error for the form's
 * own alert unless those were all it said.
 */
export function domainRefusals(error: unknown): { domains: string[]; rest: unknown } {
  const details = error instanceof ApiError ? (error.details ?? {}) : {};
  const keys = Object.keys(details);
  const mine = keys.filter((k) => k === 'allowedDomains' || k.startsWith('allowedDomains.'));
  const domains = mine.map((k) => details[k] ?? '');
  return { domains, rest: mine.length > 0 && mine.length === keys.length ? null : error };
}

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
export const isHex = (c: string) => HEX.test(c.trim());

/** `#abc` → `#aabbcc` (what `<input type="color">` wants). */
export function sixDigits(c: string): string | null {
  const t = c.trim().toLowerCase();
  if (!isHex(t)) return null;
  return t.length === 4 ? `#${[...t.slice(1)].map((x) => x + x).join('')}` : t;
}

/** Dark or white text, whichever the widget itself uses on this colour (apps/widget view.ts). */
export function textOn(color: string): string {
  const full = sixDigits(color)?.slice(1);
  if (!full) return '#fff';
  const [r = 0, g = 0, b = 0] = [0, 2, 4].map((i) => {
    const c = Number.parseInt(full.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.18 ? '#111827' : '#fff';
}

/** `companyName` / `company_name` → "Company name" (as the widget's lead form labels them). */
export function labelOf(field: string): string {
  const standard: Record<string, string> = { name: 'Name', email: 'Email', phone: 'Phone' };
  if (standard[field]) return standard[field];
  const words = field
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
