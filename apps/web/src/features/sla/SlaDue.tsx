import { useTranslation } from 'react-i18next';
import type { InboxConversation } from '../inbox/types.ts';
import { kindWords, leftWords, soonestDue } from './clocks.ts';
import './sla-clocks.css';

/**
 * An inbox row's SLA (docs/dashboard.md "Inbox"): the time left to the soonest due time of its
 * running clocks ("First response in 25 min"), or how long past it, in red with a mark and the
 * word "overdue"; and "SLA breached" once a breach is recorded. Nothing without a policy.
 */
export function SlaDue({ sla, now }: { sla: InboxConversation['sla']; now: number }) {
  const { t } = useTranslation('sla');
  if (!sla) return null;
  const due = soonestDue(sla);
  const left = due && leftWords(due.at, now);
  return (
    <>
      {due && left && (
        <span className={`sla-due${left.overdue ? ' overdue' : ''}`} data-testid="sla-due">
          {left.overdue && <span aria-hidden="true">⚠ </span>}
          <time dateTime={due.at}>{t('clocks.due', { kind: kindWords(due.kind), left: left.words })}</time>
        </span>
      )}
      {sla.breaches.length > 0 && <span className="badge sla-breached">{t('clocks.breached')}</span>}
    </>
  );
}
