import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { dateFormats } from '../../../web/src/shell/dates.ts';

/**
 * The dashboard's one way of writing dates (apps/web/src/shell/dates.ts; docs/dashboard.md "Dates
 * and numbers"): `Intl` in the reader's locale, the same style on every page, and no page that
 * formats a date on its own.
 */

const webSrc = fileURLToPath(new URL('../../../web/src/', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

describe('dates in the dashboard', () => {
  it('writes a moment, a date, a time and a chart day in the locale given', () => {
    const us = dateFormats('en-US', 'UTC');
    const at = '2026-11-27T07:25:15Z';
    expect(us.dateTime(at)).toMatch(/^Nov 27, 2026, 7:25\sAM$/);
    expect(us.date(at)).toBe('Nov 27, 2026');
    expect(us.time(at)).toMatch(/^7:25\sAM$/);
    expect(us.day('2026-11-26')).toBe('Nov 26');
    const gb = dateFormats('en-GB', 'UTC');
    expect(gb.dateTime(at)).toBe('27 Nov 2026, 07:25');
    expect(gb.day('2026-11-26')).toBe('26 Nov');
    // A chart's day is a UTC date: no time zone moves it to the day before.
    expect(dateFormats('en-US', 'America/Los_Angeles').day('2026-11-26')).toBe('Nov 26');
    expect(dateFormats('de-DE', 'Europe/Berlin').dateTime(at)).toBe('27.11.2026, 08:25');
  });

  it('is the only place that formats a date', () => {
    const own =
      /toLocaleDateString|toLocaleTimeString|Intl\.DateTimeFormat|new Date\([^)]*\)\.(toLocaleString|toString)\(/;
    const offending = sources(webSrc)
      .map((file) => relative(webSrc, file).replaceAll('\\', '/'))
      .filter((file) => file !== 'shell/dates.ts')
      .filter((file) => own.test(readFileSync(join(webSrc, file), 'utf8')));
    expect(offending).toEqual([]);
  });
});
