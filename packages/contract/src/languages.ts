import { z } from 'zod';

/**
 * The languages Parley speaks (docs/languages.md): the widget's strings, the built-in responder's
 * own lines and the dashboard. Stored as the primary language subtag, with the script for Chinese.
 */
export const LANGUAGES = [
  'en',
  'es',
  'fr',
  'de',
  'pt',
  'it',
  'nl',
  'pl',
  'tr',
  'ja',
  'zh-Hans',
  'ar',
] as const;
export type Language = (typeof LANGUAGES)[number];

export const languageSchema = z.enum(LANGUAGES).describe('A supported language (docs/languages.md)');

/** Languages written right to left. */
const RTL = new Set<string>(['ar', 'he', 'fa', 'ur']);

export function directionOf(language: string): 'ltr' | 'rtl' {
  return RTL.has(language.split('-')[0]!.toLowerCase()) ? 'rtl' : 'ltr';
}

/**
 * The stored form of a BCP 47 tag as browsers send it ("es-MX" → "es", "zh-CN" → "zh-Hans",
 * "zh-TW" → "zh-Hant"), or null when it is not a language tag.
 */
export function normalizeLanguageTag(tag: string): string | null {
  if (typeof tag !== 'string') return null;
  const parts = tag.trim().split(/[-_]/);
  const primary = parts[0]?.toLowerCase() ?? '';
  if (!/^[a-z]{2,3}$/.test(primary)) return null;
  if (primary !== 'zh') return primary;
  const rest = parts.slice(1).map((p) => p.toLowerCase());
  if (rest.includes('hant') || rest.some((p) => ['tw', 'hk', 'mo'].includes(p))) return 'zh-Hant';
  return 'zh-Hans';
}

/** The first supported language among `tags` (in order of preference), or null. */
export function matchLanguage(tags: readonly string[]): Language | null {
  for (const tag of tags) {
    const n = normalizeLanguageTag(tag);
    if (n && (LANGUAGES as readonly string[]).includes(n)) return n as Language;
  }
  return null;
}

/** The tags of an `Accept-Language` header, in order of their q values. */
export function parseAcceptLanguage(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), i };
    })
    .filter((x) => x.tag && x.tag !== '*' && x.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((x) => x.tag);
}
