import { parse as parseCsv } from 'csv-parse/sync';
import type { AppContext } from '../../../context.ts';
import { tokenize } from '../../../providers/embeddings/offline.ts';
import { fetchForKnowledge } from '../outbound.ts';

/**
 * A spreadsheet published as CSV, read live at question time (never indexed;
 * docs/knowledge.md "Realtime sources"). Rows are cached briefly per source so one conversation does not
 * refetch on every turn.
 */
export type SheetRows = { columns: string[]; rows: Array<Record<string, string>> };
export class RealtimeError extends Error {}

const CACHE_MS = 60_000;

/** Sheets read recently, by source id: on `AppContext` as `ctx.sheets` (built by bootstrap.ts). */
export type SheetCache = Map<string, { at: number; sheet: SheetRows }>;

export async function readSheet(ctx: AppContext, sourceId: string, url: string): Promise<SheetRows> {
  const cache = ctx.sheets;
  const hit = cache.get(sourceId);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.sheet;
  const res = await fetchForKnowledge(ctx, url, { headers: { accept: 'text/csv, text/plain' } });
  if (res.status !== 200) throw new RealtimeError(`The spreadsheet answered ${res.status}`);
  let records: string[][];
  try {
    records = parseCsv(res.body, {
      relax_column_count: true,
      skip_empty_lines: true,
      bom: true,
    }) as string[][];
  } catch {
    throw new RealtimeError('The spreadsheet is not valid CSV');
  }
  const [header = [], ...body] = records;
  const columns = header.map((h, i) => h.trim() || `column ${i + 1}`);
  const sheet = {
    columns,
    rows: body.map((r) => Object.fromEntries(columns.map((c, i) => [c, (r[i] ?? '').trim()]))),
  };
  if (cache.size > 500) cache.clear();
  cache.set(sourceId, { at: Date.now(), sheet });
  return sheet;
}

/** The rows sharing the most words with the question (ties keep sheet order). */
export function matchRows(sheet: SheetRows, question: string, limit = 5): Array<Record<string, string>> {
  const words = new Set(tokenize(question));
  if (words.size === 0) return [];
  return sheet.rows
    .map((row, i) => {
      const cells = new Set(tokenize(Object.values(row).join(' ')));
      let score = 0;
      for (const w of words) if (cells.has(w)) score++;
      return { row, score, i };
    })
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, limit)
    .map((r) => r.row);
}
