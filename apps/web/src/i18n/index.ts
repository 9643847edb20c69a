/// <reference path="./glob.d.ts" />
import { directionOf, LANGUAGES, type Language } from '@parley/contract/languages';
import i18next from 'i18next';
import { useLayoutEffect } from 'react';
import { initReactI18next } from 'react-i18next';
import { browserLanguage, currentLanguage, setLocaleLanguage } from './locale.ts';
import type {} from './resources.ts';

/**
 * The dashboard's strings in the user's language (docs/languages.md "Dashboard"): i18next with
 * react-i18next. Every file `./<language>/<namespace>.ts` is a catalog, found by Vite's
 * `import.meta.glob` at build time: adding a language or a feature's catalog needs no list here.
 * English is the fallback for any key or namespace a language lacks.
 */

type Catalog = { [key: string]: string | Catalog };

const files = import.meta.glob<{ default: Catalog }>('./*/*.ts', { eager: true });

const resources: Record<string, Record<string, Catalog>> = {};
for (const [path, mod] of Object.entries(files)) {
  const match = /^\.\/([^/]+)\/([^/.]+)\.ts$/.exec(path);
  if (!match) continue;
  const [, language = '', namespace = ''] = match;
  resources[language] ??= {};
  resources[language][namespace] = mod.default;
}

/** The languages the dashboard has catalogs for (the rest show English text). */
export const DASHBOARD_LANGUAGES = LANGUAGES.filter((l) => resources[l]?.shell);

export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  resources,
  lng: currentLanguage(),
  fallbackLng: 'en',
  supportedLngs: [...LANGUAGES],
  ns: Object.keys(resources.en ?? {}),
  defaultNS: 'shell',
  // React escapes what it renders.
  interpolation: { escapeValue: false },
  initAsync: false,
  returnEmptyString: false,
});

/** Switches the dashboard's strings, dates and numbers to `language`. */
export function setDashboardLanguage(language: Language): void {
  setLocaleLanguage(language);
  if (i18n.language !== language) void i18n.changeLanguage(language);
  if (typeof document === 'undefined') return;
  // The page's language is the language of its text: English where the dashboard has no catalogs.
  const shown = DASHBOARD_LANGUAGES.includes(language) ? language : 'en';
  document.documentElement.lang = shown;
  document.documentElement.dir = directionOf(shown);
}

/**
 * Keeps the dashboard in the account's language, or the browser's when signed out or when the
 * account has not chosen one (null). A layout effect, so the first paint is already translated.
 */
export function useDashboardLanguage(accountLanguage: Language | null | undefined): void {
  const language = accountLanguage ?? browserLanguage();
  useLayoutEffect(() => setDashboardLanguage(language), [language]);
}
