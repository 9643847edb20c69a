import { PLAN_RANK } from '@parley/contract/plans';
import { useMutation, useQueryClient } from '@tanstack/react-query';
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
  planName,
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
  const command = operatorCommand(ws);
  return (
    <section className="card operator" aria-labelledby="operator-title">
      <h2 id="operator-title">Billing is managed by the operator</h2>
      <p>
        Online payment is not set up on this server, so the plan cannot be changed here. The person who runs
        Parley changes it with this command:
      </p>
      <p className="command">
        <code>{command}</code> <CopyButton text={command} label="Copy command" />
      </p>
      <p className="muted">
        This workspace's id is <code>{ws}</code>. Operators: see docs/billing.md, "Changing a plan by hand".
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
      <h2 id="plans-title">Plans</h2>
      <ul className="plans" aria-label="Plans">
        {PLANS.map((p) => {
          const isCurrent = p.id === current;
          // During the trial the plan is already Pro: paying for it keeps it after the trial.
          const up = PLAN_RANK[p.id] > PLAN_RANK[current] || (trialing && isCurrent && p.id !== 'free');
          const down = paid && PLAN_RANK[p.id] < PLAN_RANK[current] && sub?.pendingPlan !== p.id;
          return (
            <li key={p.id} className={`card plan${isCurrent ? ' current' : ''}`} aria-label={p.name}>
              <h3>
                {p.name} {isCurrent && <span className="badge ready">Current</span>}
              </h3>
              <p className="price">{priceText(p)}</p>
              <p>{p.credits}</p>
              <p className="muted">{p.notes}</p>
              {canAct && up && (
                <button
                  type="button"
                  className="primary"
                  disabled={busy}
                  onClick={() => upgrade.mutate(p.id)}
                >
                  {upgrade.isPending && upgrade.variables === p.id
                    ? 'Opening checkout…'
                    : `Upgrade to ${p.name}`}
                </button>
              )}
              {canAct && down && (
                <ConfirmButton
                  label={`Move to ${p.name}`}
                  question={`Move to ${p.name} on ${ends}?`}
                  confirmLabel={`Yes, move to ${p.name}`}
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
            label={`Cancel ${planName(current)}`}
            question={`Cancel? ${planName(current)} stays until ${ends}; data is deleted 30 days after cancelling.`}
            confirmLabel="Yes, cancel"
            pending={cancel.isPending}
            onConfirm={() => cancel.mutate()}
          />
        </p>
      )}
    </section>
  );
}

export function Portal(props: { ws: string; summary: BillingSummary; onNotConfigured(): void }) {
  const portal = useMutation({
    mutationFn: () => post<Data<{ url: string }>>(`/api/workspaces/${props.ws}/billing/portal`),
    onSuccess: go,
    onError: (err) => notConfigured(err) && props.onNotConfigured(),
  });
  return (
    <section className="card" aria-labelledby="portal-title">
      <h2 id="portal-title">Payment methods</h2>
      <p>Cards, link-based and mobile wallets, billing details and past invoices are managed on Stripe.</p>
      <button type="button" onClick={() => portal.mutate()} disabled={portal.isPending}>
        {portal.isPending ? 'Opening…' : 'Manage billing'}
      </button>
      {!notConfigured(portal.error) && <ErrorText error={portal.error} />}
    </section>
  );
}
