/**
 * The inbox benchmark's deep cursors (bench/inbox.ts): walked through the API in pages of 100 to
 * reach a position 2,000 rows in, or a list's last page, as a person paging far would.
 */

/**
 * A cursor 2,000 rows into the filtered list (20 pages of 100); in a shorter list (a rare label),
 * the cursor of its last page of 25, the one that scans furthest. None when the list is one page.
 */
export async function deepCursorOf(list: string, filter: string, headers: Record<string, string>) {
  let cursor: string | null = null;
  let rows = 0;
  for (let i = 0; i < 20; i++) {
    const url = `${list.replace('limit=25', 'limit=100')}${filter}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res = await fetch(url, { headers });
    const body = (await res.json()) as { data: unknown[]; nextCursor: string | null };
    if (!body.nextCursor) {
      const seen = rows + body.data.length;
      return seen > 25 ? lastPageCursor(list, filter, headers, seen) : null;
    }
    cursor = body.nextCursor;
    rows += body.data.length;
  }
  return cursor ? { cursor, rows } : null;
}

/** A conversation with no SLA clock running: the tail of `sort=sla`. */
type SlaOf = {
  id: string;
  sla: {
    firstResponseDueAt: string | null;
    nextResponseDueAt: string | null;
    resolutionDueAt: string | null;
  } | null;
};
const noClock = (c: SlaOf) =>
  !c.sla || (!c.sla.firstResponseDueAt && !c.sla.nextResponseDueAt && !c.sla.resolutionDueAt);

/**
 * The `sort=sla` list's deep cursors, walked in pages of 100: 2,000 rows into the part with due
 * times (or the last page that starts in it), and 2,000 rows into the no-clock tail (or the last
 * page of the list).
 */
export async function slaCursorsOf(list: string, filter: string, headers: Record<string, string>) {
  const pages: Array<{ cursor: string; rows: number; inTail: boolean }> = [];
  let cursor: string | null = null;
  let rows = 0;
  let tailStart: number | undefined;
  // The order is total (due time, then id): a row met twice would be a cursor that goes back.
  const seen = new Set<string>();
  let repeated = 0;
  for (;;) {
    const url = `${list.replace('limit=25', 'limit=100')}${filter}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const body = (await (await fetch(url, { headers })).json()) as {
      data: SlaOf[];
      nextCursor: string | null;
    };
    for (const c of body.data) {
      if (seen.has(c.id)) repeated++;
      seen.add(c.id);
    }
    const first = body.data.findIndex(noClock);
    if (tailStart === undefined && first >= 0) tailStart = rows + first;
    rows += body.data.length;
    if (!body.nextCursor) break;
    cursor = body.nextCursor;
    pages.push({ cursor, rows, inTail: tailStart !== undefined && rows > tailStart });
    if (tailStart !== undefined && rows >= tailStart + 2000) break;
  }
  if (repeated) console.log(`sort=sla walk${filter}: ${repeated} of ${rows} rows met twice`);
  const out: Array<{ label: string; cursor: string }> = [];
  const at = (n: number) => (n + 1).toLocaleString('en');
  const inDue = pages.filter((p) => !p.inTail);
  const dueDeep = inDue.find((p) => p.rows === 2000) ?? inDue[inDue.length - 1];
  if (dueDeep)
    out.push({
      label:
        dueDeep.rows === 2000
          ? 'due times, rows 2,001-2,025'
          : `due times, last page (rows ${at(dueDeep.rows)}-)`,
      cursor: dueDeep.cursor,
    });
  const inTail = pages.filter((p) => p.inTail);
  const tailDeep = inTail.find((p) => p.rows >= tailStart! + 2000) ?? inTail[inTail.length - 1];
  if (tailDeep)
    out.push({
      label: `no-clock tail, ${tailDeep.rows >= tailStart! + 2000 ? '' : 'last page, '}rows ${at(tailDeep.rows)}- (tail from ${at(tailStart!)})`,
      cursor: tailDeep.cursor,
    });
  return out;
}

/** The cursor of the last page of 25 of a list of `seen` rows (pages of 25 from the start). */
async function lastPageCursor(list: string, filter: string, headers: Record<string, string>, seen: number) {
  const skip = Math.floor((seen - 1) / 25) * 25;
  let cursor: string | null = null;
  for (let rows = 0; rows < skip; rows += 25) {
    const url = `${list}${filter}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const body = (await (await fetch(url, { headers })).json()) as { nextCursor: string | null };
    cursor = body.nextCursor;
    if (!cursor) return null;
  }
  return cursor ? { cursor, rows: skip } : null;
}
