import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { holdParses } from '../../src/features/knowledge/ingestion/parse-gate.ts';
import { parseFileIsolated } from '../../src/features/knowledge/ingestion/parse-isolated.ts';
import { type HoldState, nextHold } from '../../src/features/knowledge/ingestion/parse-process.ts';
import { largePdf } from '../support/hostile-files.ts';
import { parseLimits } from './helpers.ts';

/**
 * docs/decisions/0014-hostile-files.md: while the server's event loop is busy the parses are held at
 * their safe points, so that they take no CPU from the requests; never for good.
 */
afterEach(() => holdParses(false));

describe('holding the parses while the server is busy', () => {
  it('holds once the loop has been busy, lets go when it is not, and never holds for more than 4.9 s in a row', () => {
    let s: HoldState = { held: false, since: 0 };
    s = nextHold(s, false, 100);
    expect(s.held).toBe(false);
    s = nextHold(s, true, 200);
    expect(s).toEqual({ held: true, since: 200 });
    s = nextHold(s, true, 600);
    expect(s.held).toBe(true);
    s = nextHold(s, false, 700);
    expect(s).toEqual({ held: false, since: 700 });
    // busy without end: held 4.9 s, then let go on for at least 0.1 s, again and again
    const held: boolean[] = [];
    for (let t = 800; t <= 15_700; t += 100) {
      s = nextHold(s, true, t);
      held.push(s.held);
    }
    expect(held.filter((h) => !h).length).toBeGreaterThanOrEqual(3);
    expect(held.filter(Boolean).length).toBeGreaterThanOrEqual(140);
    let run = 0;
    for (const h of held) {
      run = h ? run + 1 : 0;
      expect(run).toBeLessThanOrEqual(49);
    }
  });

  it('a held parse waits at its next page and goes on, whole, once let go', async () => {
    const pdf = largePdf(1, 20);
    // a warm worker first: it parses this file in well under the wait below
    expect((await parseFileIsolated(pdf, 'pdf', parseLimits)).text).toContain('Page 20:');
    holdParses(true);
    let done = false;
    const parse = parseFileIsolated(pdf, 'pdf', parseLimits).then((p) => {
      done = true;
      return p;
    });
    await sleep(1500);
    expect(done).toBe(false);
    holdParses(false);
    const parsed = await parse;
    expect(parsed.text).toContain('Page 1:');
    expect(parsed.text).toContain('Page 20:');
  });
});
