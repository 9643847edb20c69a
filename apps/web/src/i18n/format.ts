import { currentLocale } from './locale.ts';

/**
 * Numbers, money, percentages and relative times in the dashboard's locale (docs/languages.md
 * "Dashboard"); dates and times are in apps/web/src/shell/dates.ts. Formatters are made once per
 * locale and options.
 */

const cache = new Map<string, Intl.NumberFormat>();
function numberFormat(options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  const locale = currentLocale();
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = cache.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, options);
    cache.set(key, f);
  }
  return f;
}

/** A count or amount: "12,345" in English, "12.345" in Spanish. */
export function formatNumber(n: number, options?: Intl.NumberFormatOptions): string {
  return numberFormat(options).format(n);
}

/** A ratio 0..1 as a percentage, to one decimal at most: "42.5%", "42,5 %". */
export function formatPercent(ratio: number, maximumFractionDigits = 1): string {
  return numberFormat({ style: 'percent', maximumFractionDigits }).format(ratio);
}

/**
 * Money in a currency's major unit ("$12.00", "12,00 US$"). `minor: true` takes the amount in the
 * currency's minor unit (cents), as the billing API sends it.
 */
export function formatCurrency(amount: number, currency: string, options: { minor?: boolean } = {}): string {
  const f = numberFormat({ style: 'currency', currency: currency.toUpperCase() });
  const digits = f.resolvedOptions().maximumFractionDigits ?? 2;
  return f.format(options.minor ? amount / 10 ** digits : amount);
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/**
 * A moment relative to now in its largest whole unit: "3 minutes ago", "in 2 days", "hace 3
 * minutos", "ayer"; under a minute, "now" / "ahora".
 */
export function formatRelativeTime(at: string | Date, now: Date = new Date()): string {
  const ms = (typeof at === 'string' ? new Date(at) : at).getTime() - now.getTime();
  const rtf = new Intl.RelativeTimeFormat(currentLocale(), { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(ms) >= size) return rtf.format(Math.trunc(ms / size), unit);
  }
  return rtf.format(0, 'second');
}

/** A list joined in the language: "a, b and c", "a, b y c". */
export function formatList(
  items: readonly string[],
  type: 'conjunction' | 'disjunction' = 'conjunction',
): string {
  return new Intl.ListFormat(currentLocale(), { style: 'long', type }).format(items);
}

/** A language's own name ("español", "English", "日本語") for a language picker. */
export function languageName(language: string, inLanguage: string = language): string {
  try {
    return new Intl.DisplayNames([inLanguage], { type: 'language' }).of(language) ?? language;
  } catch {
    return language;
  }
}
