import { formatDateTime } from '../../shell/dates.ts';
import type { InboxConversation } from '../inbox/types.ts';
import { dueTimes, KIND_WORDS, leftWords, useNow } from './clocks.ts';
import { type SlaPolicy, useSlaPolicies } from './types.ts';
import './sla-clocks.css';

/** The policy's target for each clock: a clock without one never runs, so it is not listed. */
const TARGET_OF = {
  first_response: 'firstResponseMinutes',
  next_response: 'nextResponseMinutes',
  resolution: 'resolutionMinutes',
} as const;

/** A clock with no due time: met, stopped (back to the AI, closed), or not started. */
const IDLE_WORDS = {
  first_response: 'Not running (met or stopped)',
  next_response: 'Not running (it starts when the customer writes after a reply)',
  resolution: 'Not running (met or stopped)',
} as const;

/**
 * A conversation's SLA block (docs/sla.md "Clocks" and "Breaches"; docs/dashboard.md "Inbox"): the
 * policy chosen at its handoff, each due time with the time left or past it (renewed every 30 s
 * and by the conversation's live changes), and the breaches recorded. Nothing when no policy
 * applied.
 */
export function ConversationSla({ ws, conversation: c }: { ws: string; conversation: InboxConversation }) {
  const policies = useSlaPolicies(ws);
  const now = useNow();
  const sla = c.sla;
  if (!sla) return null;
  const policy: SlaPolicy | undefined = policies.data?.data.find((p) => p.id === sla.policyId);
  const clocks = dueTimes(sla).filter(({ kind, at }) => at || !policy || policy[TARGET_OF[kind]] != null);
  return (
    <section className="card stack sla-clock" aria-labelledby="sla-heading">
      <h2 id="sla-heading">SLA</h2>
      <p>
        Policy:{' '}
        {policy ? <strong>{policy.name}</strong> : policies.isPending ? '…' : 'a policy since deleted'}
      </p>
      <dl className="sla-clocks" aria-label="Due times">
        {clocks.map(({ kind, at }) => {
          const left = at ? leftWords(at, now) : null;
          return (
            <div key={kind}>
              <dt>{KIND_WORDS[kind]}</dt>
              <dd>
                {at && left ? (
                  <>
                    due <time dateTime={at}>{formatDateTime(at)}</time> ·{' '}
                    <span className={`sla-left${left.overdue ? ' overdue' : ''}`}>
                      {left.overdue && <span aria-hidden="true">⚠ </span>}
                      {left.words}
                    </span>
                  </>
                ) : (
                  <span className="muted">{IDLE_WORDS[kind]}</span>
                )}
              </dd>
            </div>
          );
        })}
      </dl>
      <h3>Breaches</h3>
      {sla.breaches.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <ol className="sla-breaches" aria-label="SLA breaches">
          {sla.breaches.map((b) => (
            <li key={`${b.kind}-${b.at}`}>
              {KIND_WORDS[b.kind]} missed: due <time dateTime={b.at}>{formatDateTime(b.at)}</time>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
