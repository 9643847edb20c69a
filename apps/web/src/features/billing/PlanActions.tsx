import { PLAN_RANK } from '@parley/contract/plans';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Trans, useTranslation } from 'react-i18next';
import { ApiError, type Data, post } from '../../api.ts';
import { CopyButton } from '../../shell/CopyButton.tsx';
import { ErrorText } from '../../shell/ui.tsx';
import { ConfirmButton } from '../members/ConfirmButton.tsx';
import {
  type BillingSummary,
  dateOf,
  operatorCommand,
  PLANS,
  type Plan,
  planCredits,
  planName,
  planNotes,
  priceText,
} from './types.ts';

/**
 * The owner's billing actions (docs/billing.md): Checkout and the portal answer `{data: {url}}`
 * and the browser goes there; a downgrade or cancel applies at the end of the period. Each
 * answers 400 `billing_not_configured` when the server has no Stripe key: the page then shows
 * the operator's command instead of buttons.
 */

const notConfigured = (err: unknown) => err instanceof ApiError && err.code === 'billing_not_configured';

/** Leaves the dashboard for Stripe's page (Checkout or the portal). */
const go = (res: Data<{ url: string }>) => window.location.assign(res.data.url);

export function OperatorNote({ ws }: { ws: string }) {
  const { t } = useTranslation('billing');
  const command = operatorCommand(ws);
  return (
    <section className="card operator" aria-labelledby="operator-title">
      <h2 id="operator-title">{t('operator.title')}</h2>
      <p>{t('operator.text')}</p>
      <p className="command">
        <code>{command}</code> <CopyButton text={command} label={t('operator.copy')} />
      </p>
      <p className="muted">
        <Trans t={t} i18nKey="operator.id" values={{ ws }} components={{ code: <code /> }} />
      </p>
    </section>
  );
}

export function PlanChoices(props: {
  ws: string;
  summary: BillingSummary;
  canAct: boolean;
  onNotConfigured(): void;
}) {
  const { ws, summary, canAct, onNotConfigured } = props;
  const { t } = useTranslation('billing');
  const qc = useQueryClient();
  const onError = (err: unknown) => notConfigured(err) && onNotConfigured();
  const upgrade = useMutation({
    mutationFn: (plan: Plan) =>
      post<Data<{ url: string }>>(`/api/workspaces/${ws}/billing/checkout`, { plan }),
    onSuccess: go,
    onError,
  });
  const change = useMutation({
    mutationFn: (plan: Plan) => post(`/api/workspaces/${ws}/billing/change`, { plan }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['billing', ws] }),
    onError,
  });
  const cancel = useMutation({
    mutationFn: () => post(`/api/workspaces/${ws}/billing/cancel`),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['billing', ws] }),
    onError,
  });
  const current = summary.plan as Plan;
  const trialing = summary.status === 'trialing';
  // A paid plan in force (not a trial): the owner may move down or cancel, at the period's end.
  const sub = summary.subscription;
  const paid = current !== 'free' && !trialing && !sub?.cancelAtPeriodEnd;
  const ends = dateOf(sub?.currentPeriodEnd ?? summary.periodEnd);
  const busy = upgrade.isPending || change.isPending || cancel.isPending;
  const error = [upgrade.error, change.error, cancel.error].find((e) => e && !notConfigured(e));

  return (
    <section aria-labelledby="plans-title">
      <h2 id="plans-title">{t('choices.title')}</h2>
      <ul className="plans" aria-label={t('choices.title')}>
        {PLANS.map((p) => {
          const isCurrent = p.id === current;
          // During the trial the plan is already Pro: paying for it keeps it after the trial.
          const up = PLAN_RANK[p.id] > PLAN_RANK[current] || (trialing && isCurrent && p.id !== 'free');
          const down = paid && PLAN_RANK[p.id] < PLAN_RANK[current] && sub?.pendingPlan !== p.id;
          const name = planName(p.id);
          return (
            <li key={p.id} className={`card plan${isCurrent ? ' current' : ''}`} aria-label={name}>
              <h3>
                {name} {isCurrent && <span className="badge ready">{t('choices.current')}</span>}
              </h3>
              <p className="price">{priceText(p)}</p>
              <p>{planCredits(p.id)}</p>
              <p className="muted">{planNotes(p.id)}</p>
              {canAct && up && (
                <button
                  type="button"
                  className="primary"
                  disabled={busy}
                  onClick={() => upgrade.mutate(p.id)}
                >
                  {upgrade.isPending && upgrade.variables === p.id
                    ? t('choices.opening')
                    : t('choices.upgrade', { plan: name })}
                </button>
              )}
              {canAct && down && (
                <ConfirmButton
                  label={t('choices.move', { plan: name })}
                  question={t('choices.moveQuestion', { plan: name, date: ends })}
                  confirmLabel={t('choices.moveConfirm', { plan: name })}
                  pending={change.isPending}
                  onConfirm={() => change.mutate(p.id)}
                />
              )}
            </li>
          );
        })}
      </ul>
      <ErrorText error={error} />
      {canAct && paid && (
        <p>
          <ConfirmButton
            label={t('choices.cancel', { plan: planName(current) })}
            question={t('choices.cancelQuestion', { plan: planName(current), date: ends })}
            confirmLabel={t('choices.cancelConfirm')}
            pending={cancel.isPending}
            onConfirm={() => cancel.mutate()}
          />
        </p>
      )}
    </section>
  );
}

export function Portal(props: { ws: string; summary: BillingSummary; onNotConfigured(): void }) {
  const { t } = useTranslation('billing');
  const portal = useMutation({
    mutationFn: () => post<Data<{ url: string }>>(`/api/workspaces/${props.ws}/billing/portal`),
    onSuccess: go,
    onError: (err) => notConfigured(err) && props.onNotConfigured(),
  });
  return (
    <section className="card" aria-labelledby="portal-title">
      <h2 id="portal-title">{t('portal.title')}</h2>
      <p>{t('portal.text')}</p>
      <button type="button" onClick={() => portal.mutate()} disabled={portal.isPending}>
        {portal.isPending ? t('portal.opening') : t('portal.manage')}
      </button>
      {!notConfigured(portal.error) && <ErrorText error={portal.error} />}
    </section>
  );
}
