import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  formatCurrency,
  formatNumber,
  formatPercent,
  formatRelativeTime,
} from '../../../web/src/i18n/format.ts';
import { i18n, setDashboardLanguage } from '../../../web/src/i18n/index.ts';
import { currentLocale } from '../../../web/src/i18n/locale.ts';
import { dateFormats, durationWords, formatDateTime } from '../../../web/src/shell/dates.ts';

/**
 * The dashboard's catalogs (apps/web/src/i18n; docs/languages.md "Dashboard"): Spanish is complete
 * (the same keys as English, the same placeholders and tags), every English catalog is typed in
 * resources.ts, and the loader finds every file without a list.
 */

const dir = fileURLToPath(new URL('../../../web/src/i18n/', import.meta.url));
const namespaces = (language: string) =>
  readdirSync(join(dir, language))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.replace(/\.ts$/, ''))
    .sort();

type Catalog = { [key: string]: string | Catalog };
const flatten = (c: Catalog, prefix = ''): Record<string, string> =>
  Object.fromEntries(
    Object.entries(c).flatMap(([k, v]) =>
      typeof v === 'string' ? [[`${prefix}${k}`, v]] : Object.entries(flatten(v, `${prefix}${k}.`)),
    ),
  );
const catalog = (language: string, ns: string) =>
  flatten((i18n.getResourceBundle(language, ns) ?? {}) as Catalog);
const marks = (text: string) =>
  [
    ...(text.match(/\{\{\s*[\w.]+/g) ?? []).map((m) => m.replace(/\s/g, '')),
    ...(text.match(/<\/?\w+\s*\/?>/g) ?? []),
  ].sort();

afterAll(() => setDashboardLanguage('en'));

describe('dashboard catalogs', () => {
  it('loads every catalog file, and types every English one', () => {
    const en = namespaces('en');
    expect(en).toContain('shell');
    for (const language of readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory())) {
      for (const ns of namespaces(language.name)) {
        expect(i18n.hasResourceBundle(language.name, ns), `${language.name}/${ns}`).toBe(true);
      }
    }
    const types = readFileSync(join(dir, 'resources.ts'), 'utf8');
    for (const ns of en) expect(types, `resources.ts lacks ${ns}`).toContain(`import('./en/${ns}.ts')`);
  });

  it('has Spanish for every English string, with the same placeholders and tags', () => {
    expect(namespaces('es')).toEqual(namespaces('en'));
    for (const ns of namespaces('en')) {
      const en = catalog('en', ns);
      const es = catalog('es', ns);
      expect(Object.keys(es).sort(), ns).toEqual(Object.keys(en).sort());
      for (const [key, text] of Object.entries(en)) {
        expect(es[key]?.trim(), `${ns}:${key}`).toBeTruthy();
        expect(marks(es[key] ?? ''), `${ns}:${key}`).toEqual(marks(text));
        // <Trans> parses an HTML void element's tag as empty: its text would land after it.
        expect(text, `${ns}:${key}`).not.toMatch(
          /<(area|base|br|col|embed|hr|img|input|link|meta|source|track|wbr)>/,
        );
      }
    }
  });

  it('falls back to English for what a language lacks', () => {
    setDashboardLanguage('fr');
    expect(i18n.t('ui.previous')).toBe('Previous');
    setDashboardLanguage('es');
    expect(i18n.t('ui.previous')).toBe('Anterior');
    expect(i18n.t('ui.range', { from: 1, to: 20, total: 45 })).toBe('1–20 de 45');
  });

  it('writes numbers, money, percentages, relative times and dates in the language', () => {
    setDashboardLanguage('es');
    expect(currentLocale().split('-')[0]).toBe('es');
    expect(formatNumber(12345)).toBe('12.345');
    expect(formatPercent(0.425)).toMatch(/^42,5\s%$/);
    expect(formatCurrency(1200, 'usd', { minor: true })).toMatch(/^12,00\sUS\$$/);
    const now = new Date('2026-11-27T12:00:00Z');
    expect(formatRelativeTime('2026-11-26T12:00:00Z', now)).toBe('ayer');
    expect(formatRelativeTime('2026-11-27T11:57:00Z', now)).toBe('hace 3 minutos');
    expect(formatDateTime('2026-11-27T07:25:00Z')).toMatch(/nov/);
    expect(dateFormats('es', 'UTC').date('2026-11-27T07:25:00Z')).toBe('27 nov 2026');
    expect(durationWords(90 * 60_000)).toBe('1 h 30 min');
    setDashboardLanguage('en');
    expect(formatNumber(12345)).toBe('12,345');
    expect(durationWords(20_000)).toBe('less than a minute');
  });
});
