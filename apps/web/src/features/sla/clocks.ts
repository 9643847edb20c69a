import type { SLA_KINDS } from '@parley/contract/sla';
import { useEffect, useState } from 'react';
import { durationWords } from '../../shell/dates.ts';
import type { InboxConversation } from '../inbox/types.ts';

/**
 * A conversation's SLA clocks as the dashboard shows them (docs/sla.md "Clocks"; docs/dashboard.md
 * "Inbox"): the soonest due time of the running ones, and the time left to it or past it.
 */
export type ConversationSla = NonNullable<InboxConversation['sla']>;
export type SlaKind = (typeof SLA_KINDS)[number];

export const KIND_WORDS: Record<SlaKind, string> = {
  first_response: 'First response',
  next_response: 'Next response',
  resolution: 'Resolution',
};

/** Each clock's due time (null once met or stopped), in the order the targets are listed. */
export const dueTimes = (sla: ConversationSla): Array<{ kind: SlaKind; at: string | null }> => [
  { kind: 'first_response', at: sla.firstResponseDueAt },
  { kind: 'next_response', at: sla.nextResponseDueAt },
  { kind: 'resolution', at: sla.resolutionDueAt },
];

/** The running clock due first (a breached one included: it is the most overdue), or null. */
export function soonestDue(sla: ConversationSla | null): { kind: SlaKind; at: string } | null {
  let soonest: { kind: SlaKind; at: string } | null = null;
  for (const { kind, at } of sla ? dueTimes(sla) : []) {
    if (at && (!soonest || Date.parse(at) < Date.parse(soonest.at))) soonest = { kind, at };
  }
  return soonest;
}

/** "in 25 min" or "overdue by 10 min", as of `now` (milliseconds). */
export function leftWords(at: string, now: number): { words: string; overdue: boolean } {
  const left = Date.parse(at) - now;
  return left > 0
    ? { words: `in ${durationWords(left)}`, overdue: false }
    : { words: `overdue by ${durationWords(left)}`, overdue: true };
}

/** The current time, renewed every `everyMs` (30 s: the words change by the minute at most). */
export function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
