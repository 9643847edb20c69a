import { describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.ts';

/** docs/api.md "Requests and responses": ids are prefixed, time-ordered and random. */
describe('newId', () => {
  it('is the prefix and a lowercase ULID', () => {
    expect(newId('msg')).toMatch(/^msg_[0-9a-hjkmnp-tv-z]{26}$/);
  });

  it('sorts in the order it was issued, within the same millisecond too', () => {
    const ids = Array.from({ length: 5000 }, () => newId('evt'));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('spreads the random part over all 32 characters (a pool refilled across many ids)', () => {
    // The first random character of ids from different milliseconds: monotonic ids within one
    // millisecond only increment, so sample across time.
    const counts = new Map<string, number>();
    let last = '';
    let samples = 0;
    while (samples < 400) {
      const id = newId('chk');
      const time = id.slice(4, 14);
      if (time === last) continue;
      last = time;
      samples++;
      const c = id[14]!;
      counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    // 400 samples over 32 characters (12.5 each on average): every character seen, none dominating
    expect(counts.size).toBeGreaterThanOrEqual(30);
    expect(Math.max(...counts.values())).toBeLessThan(50);
  });
});
