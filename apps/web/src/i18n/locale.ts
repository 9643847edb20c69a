import { type Language, matchLanguage, normalizeLanguageTag } from '@parley/contract/languages';

/**
 * The dashboard's language and the locale its dates and numbers are written in (docs/languages.md
 * "Dashboard"). Kept apart from the i18n library so the formatting helpers stay plain functions.
 *
 * The locale is the reader's own browser locale when it is of the dashboard's language (an
 * "en-GB" reader keeps "27 Nov 2026" in English; "es-MX" keeps Mexican formats in Spanish), else
 * the language itself.
 */

/** The browser's language tags; none where there is no browser (Node has `navigator` without languages). */
const browserTags = (): readonly string[] => {
  if (typeof navigator === 'undefined') return [];
  const tags = navigator.languages?.length ? navigator.languages : [navigator.language];
  return tags.filter((t): t is string => typeof t === 'string');
};

/** The browser's first supported language (the language before sign-in), else English. */
export function browserLanguage(): Language {
  return matchLanguage(browserTags()) ?? 'en';
}

function localeOf(language: string): string {
  const own = browserTags().find((tag) => normalizeLanguageTag(tag) === language);
  if (!own) return language;
  try {
    return Intl.getCanonicalLocales(own)[0] ?? language;
  } catch {
    return language;
  }
}

let current: { language: Language; locale: string } = { language: 'en', locale: 'en' };
if (typeof navigator !== 'undefined') {
  const language = browserLanguage();
  current = { language, locale: localeOf(language) };
}

/** The dashboard's language now. */
export const currentLanguage = (): Language => current.language;

/** The locale of dates and numbers now (a BCP 47 tag for `Intl`). */
export const currentLocale = (): string => current.locale;

/** Called by the i18n setup when the language changes (apps/web/src/i18n/index.ts). */
export function setLocaleLanguage(language: Language): void {
  current = { language, locale: localeOf(language) };
}
