import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { type Data, get } from '../../api.ts';
import { formatNumber } from '../../i18n/format.ts';
import { useWorkspaces } from '../../session.ts';
import { ErrorText, Loading } from '../../shell/ui.tsx';
import { CreditsMeter } from './CreditsMeter.tsx';
import { Invoices } from './Invoices.tsx';
import { OperatorNote, PlanChoices, Portal } from './PlanActions.tsx';
import { type BillingSummary, dateOf, daysLeft, onlineBilling, planLabel, planName } from './types.ts';
import './billing.css';

/**
 * `/w/{ws}/billing` (docs/dashboard.md "Billing"): the plan in force, the trial's countdown, the
 * credits meter and quotas for every member; upgrades (Stripe Checkout), the billing portal,
 * downgrade, cancel and invoices for the owner only (docs/workspaces.md "Roles").
 * Without Stripe on the server the page says the operator changes plans, and how.
 */
export function BillingPage() {
  const { t } = useTranslation('billing');
  const { ws = '' } = useParams();
  const [search] = useSearchParams();
  const role = useWorkspaces().data?.data.find((w) => w.id === ws)?.role;
  const owner = role === 'owner';
  const billing = useQuery({
    queryKey: ['billing', ws],
    queryFn: () => get<Data<BillingSummary>>(`/api/workspaces/${ws}/billing`),
  });
  // Learned from an action's 400 `billing_not_configured` when the summary does not say.
  const [offline, setOffline] = useState(false);
  const summary = billing.data?.data;
  const configured = offline ? false : summary && onlineBilling(summary);
  const checkout = search.get('checkout');

  return (
    <section className="billing">
      <h1>{t('title')}</h1>
      {checkout === 'done' && (
        <p className="warn ok" role="status">
          {t('checkoutDone')}
        </p>
      )}
      {checkout === 'cancelled' && (
        <p className="muted" role="status">
          {t('checkoutCancelled')}
        </p>
      )}
      {billing.isPending && <Loading />}
      <ErrorText error={billing.error} />
      {summary && (
        <>
          <div className="grid">
            <CurrentPlan
              summary={summary}
              upgrade={configured === false ? 'nobody' : owner ? 'you' : 'owner'}
            />
            <CreditsMeter summary={summary} />
          </div>
          {!owner && role && (
            <p className="muted" id="billing-readonly">
              {t('readonly')}
            </p>
          )}
          {configured === false && <OperatorNote ws={ws} />}
          <PlanChoices
            ws={ws}
            summary={summary}
            canAct={owner && configured !== false}
            onNotConfigured={() => setOffline(true)}
          />
          {owner && configured !== false && (
            <div className="grid">
              <Portal ws={ws} summary={summary} onNotConfigured={() => setOffline(true)} />
              <Invoices ws={ws} />
            </div>
          )}
        </>
      )}
    </section>
  );
}

/**
 * The plan in force. `upgrade`: who can upgrade from this page (the owner, with online billing),
 * so the trial's countdown never tells someone to upgrade where nobody can.
 */
function CurrentPlan({ summary, upgrade }: { summary: BillingSummary; upgrade: 'you' | 'owner' | 'nobody' }) {
  const { t } = useTranslation('billing');
  const { plan, status, trialEndsAt, usage } = summary;
  const trialing = status === 'trialing' && trialEndsAt;
  const left = trialEndsAt ? daysLeft(trialEndsAt) : 0;
  const limit = (n: number | null) => (n === null ? t('current.unlimited') : formatNumber(n));
  const sub = summary.subscription;
  const ends = dateOf(sub?.currentPeriodEnd ?? summary.periodEnd);
  return (
    <section className="card" aria-labelledby="plan-title">
      <h2 id="plan-title">{t('current.title')}</h2>
      <p className="big" data-testid="current-plan">
        {planLabel(plan, !!trialing)}
      </p>
      {trialing && (
        <p className={left <= 3 ? 'warn' : undefined} data-testid="trial-countdown">
          {t('current.daysLeft', { count: left, date: dateOf(trialEndsAt) })}{' '}
          {upgrade === 'you'
            ? t('current.upgradeYou')
            : upgrade === 'owner'
              ? t('current.upgradeOwner')
              : t('current.upgradeNobody')}
        </p>
      )}
      {sub?.pendingPlan && (
        <p className="warn">
          {sub.cancelAtPeriodEnd
            ? t('current.cancelled', { plan: planName(plan), date: ends })
            : t('current.moves', { plan: planName(sub.pendingPlan), date: ends })}
        </p>
      )}
      {!trialing && status !== 'active' && status !== 'trialing' && (
        <p className="warn danger">{t('current.status', { status: status.replaceAll('_', ' ') })}</p>
      )}
      <dl className="pairs">
        <div>
          <dt>{t('current.contacts')}</dt>
          <dd>
            {t('current.usage', {
              used: formatNumber(usage.contacts.used),
              limit: limit(usage.contacts.limit),
            })}
          </dd>
        </div>
        <div>
          <dt>{t('current.tickets')}</dt>
          <dd>
            {t('current.usage', {
              used: formatNumber(usage.tickets.used),
              limit: limit(usage.tickets.limit),
            })}
          </dd>
        </div>
      </dl>
    </section>
  );
}
