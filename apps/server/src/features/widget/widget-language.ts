import { directionOf, type Language, matchLanguage, parseAcceptLanguage } from '@parley/contract/languages';
import { type WidgetStringOverrides, widgetStringsFor } from '@parley/contract/widget-strings/index';
import type { WidgetAccess } from './widget-access.ts';

/**
 * The widget in the visitor's language (docs/languages.md "Widget"): the first supported match
 * among the languages the page sends (`navigator.languages`), then among the request's
 * `Accept-Language`, else the workspace's default language.
 */

/** What the request says about the visitor's languages. */
export type VisitorLanguages = { languages?: readonly string[]; acceptLanguage?: string };

/** Tags looked at in an `Accept-Language` header: browsers send a handful; the rest is noise. */
const MAX_HEADER_TAGS = 40;

export function widgetLanguage(visitor: VisitorLanguages, fallback: Language): Language {
  const header = visitor.acceptLanguage?.slice(0, 2000);
  return (
    matchLanguage(visitor.languages ?? []) ??
    matchLanguage(parseAcceptLanguage(header).slice(0, MAX_HEADER_TAGS)) ??
    fallback
  );
}

/** The config's `language`, `direction` and `strings` (the owner's overrides applied). */
export function languageConfig(access: WidgetAccess, visitor: VisitorLanguages) {
  const language = widgetLanguage(visitor, access.defaultLanguage);
  return {
    language,
    direction: directionOf(language),
    strings: widgetStringsFor(language, access.config.strings as WidgetStringOverrides),
  };
}
