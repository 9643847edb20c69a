import { Trans, useTranslation } from 'react-i18next';
import { formatDateTime } from '../../shell/dates.ts';
import type { InboxConversation } from '../inbox/types.ts';
import { dueTimes, kindWords, leftWords, useNow } from './clocks.ts';
import { type SlaPolicy, useSlaPolicies } from './types.ts';
import './sla-clocks.css';

/** The policy's target for each clock: a clock without one never runs, so it is not listed. */
const TARGET_OF = {
  first_response: 'firstResponseMinutes',
  next_response: 'nextResponseMinutes',
  resolution: 'resolutionMinutes',
} as const;

/**
 * A conversation's SLA block (docs/sla.md "Clocks" and "Breaches"; docs/dashboard.md "Inbox"): the
 * policy chosen at its handoff, each due time with the time left or past it (renewed every 30 s
 * and by the conversation's live changes), and the breaches recorded. Nothing when no policy
 * applied.
 */
export function ConversationSla({ ws, conversation: c }: { ws: string; conversation: InboxConversation }) {
  const { t } = useTranslation('sla');
  const policies = useSlaPolicies(ws);
  const now = useNow();
  const sla = c.sla;
  if (!sla) return null;
  const policy: SlaPolicy | undefined = policies.data?.data.find((p) => p.id === sla.policyId);
  const clocks = dueTimes(sla).filter(({ kind, at }) => at || !policy || policy[TARGET_OF[kind]] != null);
  return (
    <section className="card stack sla-clock" aria-labelledby="sla-heading">
      <h2 id="sla-heading">{t('clocks.title')}</h2>
      <p>
        {t('clocks.policy')}
        {policy ? <strong>{policy.name}</strong> : policies.isPending ? '…' : t('clocks.policyDeleted')}
      </p>
      <dl className="sla-clocks" aria-label={t('clocks.dueTimes')}>
        {clocks.map(({ kind, at }) => {
          const left = at ? leftWords(at, now) : null;
          return (
            <div key={kind}>
              <dt>{kindWords(kind)}</dt>
              <dd>
                {at && left ? (
                  <>
                    <Trans
                      t={t}
                      i18nKey="clocks.dueAt"
                      values={{ date: formatDateTime(at) }}
                      components={{ time: <time dateTime={at} /> }}
                    />
                    <span className={`sla-left${left.overdue ? ' overdue' : ''}`}>
                      {left.overdue && <span aria-hidden="true">⚠ </span>}
                      {left.words}
                    </span>
                  </>
                ) : (
                  <span className="muted">{t(`clocks.idle.${kind}`)}</span>
                )}
              </dd>
            </div>
          );
        })}
      </dl>
      <h3>{t('clocks.breaches')}</h3>
      {sla.breaches.length === 0 ? (
        <p className="muted">{t('clocks.none')}</p>
      ) : (
        <ol className="sla-breaches" aria-label={t('clocks.breachesList')}>
          {sla.breaches.map((b) => (
            <li key={`${b.kind}-${b.at}`}>
              <Trans
                t={t}
                i18nKey="clocks.missed"
                values={{ kind: kindWords(b.kind), date: formatDateTime(b.at) }}
                components={{ time: <time dateTime={b.at} /> }}
              />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
