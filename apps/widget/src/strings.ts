import { en } from '@parley/contract/widget-strings/en';
import type { WidgetStringKey } from '@parley/contract/widget-strings/keys';
import type { WidgetConfig } from './api.ts';

/**
 * The widget's words (docs/languages.md "Widget"). The server sends every string in the visitor's
 * language with the config (the owner's overrides applied); the script bundles only English, for
 * a key an older saved config lacks and for the moments before any config arrived. All twelve
 * catalogs would cost the 25 KB budget several kilobytes for strings the visitor never sees.
 */
export type Say = (key: WidgetStringKey, vars?: Record<string, string | number>) => string;

export function sayer(config: WidgetConfig): Say {
  const strings = (config.strings ?? {}) as Partial<Record<WidgetStringKey, unknown>>;
  return (key, vars = {}) => {
    const own = strings[key];
    const text = typeof own === 'string' && own ? own : en[key];
    return text.replace(/\{([a-zA-Z]+)\}/g, (whole, name: string) =>
      name in vars ? String(vars[name]) : whole,
    );
  };
}

/** Tags the server accepts (packages/contract/src/widget.ts `visitorLanguages`): at most 20, short. */
export function visitorLanguages(): string[] {
  const list = navigator.languages?.length ? navigator.languages : [navigator.language];
  return list.filter((tag) => typeof tag === 'string' && /^[A-Za-z0-9-]{1,35}$/.test(tag)).slice(0, 20);
}

/** "30 seconds", "2 minutes" in the widget's language (Intl's own plural rules). */
export function waitText(seconds: number, language?: string): string {
  const minutes = seconds >= 60;
  const n = minutes ? Math.ceil(seconds / 60) : seconds;
  const unit = minutes ? 'minute' : 'second';
  try {
    return new Intl.NumberFormat(language, { style: 'unit', unit, unitDisplay: 'long' }).format(n);
  } catch {
    return `${n} ${unit}${n === 1 ? '' : 's'}`;
  }
}
