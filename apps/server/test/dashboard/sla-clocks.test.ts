import { describe, expect, it } from 'vitest';
import { leftWords, soonestDue } from '../../../web/src/features/sla/clocks.ts';
import { durationWords } from '../../../web/src/shell/dates.ts';

/**
 * The words of a conversation's SLA clocks in the dashboard (docs/dashboard.md "Inbox"): a span in
 * its two largest units to the nearest minute, the running clock due first, time left or overdue.
 */
const MIN = 60_000;

describe('SLA clocks in the dashboard', () => {
  it('writes a span in its two largest units, to the nearest minute', () => {
    expect(durationWords(20_000)).toBe('less than a minute');
    expect(durationWords(25 * MIN)).toBe('25 min');
    expect(durationWords(14 * MIN + 50_000)).toBe('15 min');
    expect(durationWords(-10 * MIN)).toBe('10 min');
    expect(durationWords(120 * MIN)).toBe('2 h');
    expect(durationWords(90 * MIN)).toBe('1 h 30 min');
    expect(durationWords(59 * MIN + 45_000)).toBe('1 h');
    expect(durationWords(3 * 1440 * MIN)).toBe('3 d');
    expect(durationWords((1440 + 4 * 60 + 59) * MIN)).toBe('1 d 4 h');
  });

  it('takes the running clock due first, a breached one included', () => {
    const sla = {
      policyId: 'sla_1',
      firstResponseDueAt: null,
      nextResponseDueAt: '2026-12-08T10:00:00.000Z',
      resolutionDueAt: '2026-12-08T09:00:00.000Z',
      breaches: [{ kind: 'resolution' as const, at: '2026-12-08T09:00:00.000Z' }],
    };
    expect(soonestDue(sla)).toEqual({ kind: 'resolution', at: '2026-12-08T09:00:00.000Z' });
    expect(soonestDue({ ...sla, nextResponseDueAt: null, resolutionDueAt: null })).toBeNull();
    expect(soonestDue(null)).toBeNull();
  });

  it('says the time left, or how long overdue', () => {
    const at = '2026-12-08T10:00:00.000Z';
    expect(leftWords(at, Date.parse(at) - 25 * MIN)).toEqual({ words: 'in 25 min', overdue: false });
    expect(leftWords(at, Date.parse(at) + 10 * MIN)).toEqual({ words: 'overdue by 10 min', overdue: true });
    expect(leftWords(at, Date.parse(at))).toEqual({ words: 'overdue by less than a minute', overdue: true });
  });
});
