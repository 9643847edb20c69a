import type { SLA_KINDS } from '@parley/contract/sla';
import { useEffect, useState } from 'react';
import { i18n } from '../../i18n/index.ts';
import { durationWords } from '../../shell/dates.ts';
import type { InboxConversation } from '../inbox/types.ts';

/**
 * A conversation's SLA clocks as the dashboard shows them (docs/sla.md "Clocks"; docs/dashboard.md
 * "Inbox"): the soonest due time of the running ones, and the time left to it or past it.
 */
export type ConversationSla = NonNullable<InboxConversation['sla']>;
export type SlaKind = (typeof SLA_KINDS)[number];

/** A clock's name in the dashboard's language: "First response". */
export const kindWords = (kind: SlaKind) => i18n.t(`sla:clocks.kinds.${kind}`);

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
  const span = durationWords(left);
  return left > 0
    ? { words: i18n.t('sla:clocks.in', { span }), overdue: false }
    : { words: i18n.t('sla:clocks.overdue', { span }), overdue: true };
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
