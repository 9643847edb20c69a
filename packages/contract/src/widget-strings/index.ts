import type { Language } from '../languages.ts';
import { ar } from './ar.ts';
import { de } from './de.ts';
import { en } from './en.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';
import { it } from './it.ts';
import { ja } from './ja.ts';
import type { WidgetStringKey, WidgetStrings } from './keys.ts';
import { nl } from './nl.ts';
import { pl } from './pl.ts';
import { pt } from './pt.ts';
import { tr } from './tr.ts';
import { zhHans } from './zh-Hans.ts';

export { placeholdersOf, WIDGET_STRING_KEYS, type WidgetStringKey, type WidgetStrings } from './keys.ts';

/**
 * Every catalog of the widget's strings (docs/languages.md "Widget"). The server imports this
 * and sends one language's strings in the widget's config; the script bundles only `en.ts`.
 */
export const WIDGET_CATALOGS: Record<Language, WidgetStrings> = {
  en,
  es,
  fr,
  de,
  pt,
  it,
  nl,
  pl,
  tr,
  ja,
  'zh-Hans': zhHans,
  ar,
};

/** A configuration's overrides: per language, some keys' own text. */
export type WidgetStringOverrides = Partial<Record<Language, Partial<Record<WidgetStringKey, string>>>>;

/** The strings the widget shows in `language`: its catalog with the owner's overrides applied. */
export function widgetStringsFor(language: Language, overrides: WidgetStringOverrides = {}): WidgetStrings {
  return { ...WIDGET_CATALOGS[language], ...overrides[language] };
}
