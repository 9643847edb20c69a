import { useQuery } from '@tanstack/react-query';
import { type Billing, type Data, get } from '../../api.ts';
import { formatDate } from '../../shell/dates.ts';
import { ErrorText, Loading } from '../../shell/ui.tsx';

/** Credits used this period with the 80% and 100% warnings (docs/dashboard.md; docs/credits.md). */
export function CreditsCard({ ws }: { ws: string }) {
  const billing = useQuery({
    queryKey: ['billing', ws],
    queryFn: () => get<Data<Billing>>(`/api/workspaces/${ws}/billing`),
  });
  return (
    <section className="card" aria-labelledby="credits-title">
      <h2 id="credits-title">Credits this period</h2>
      {billing.isPending && <Loading />}
      <ErrorText error={billing.error} />
      {billing.data && <Credits billing={billing.data.data} />}
    </section>
  );
}

function Credits({ billing }: { billing: Billing }) {
  const { used, limit, resetsAt } = billing.credits;
  const ratio = limit > 0 ? used / limit : 1;
  const resets = formatDate(resetsAt);
  return (
    <>
      <p className="big">
        {used.toLocaleString()} <span className="muted">of {limit.toLocaleString()} used</span>
      </p>
      <progress max={limit || 1} value={Math.min(used, limit || 1)} aria-label="Credits used" />
      <p className="muted">
        Plan {billing.plan}. Resets on {resets}. Every AI reply costs one credit.
      </p>
      {ratio >= 1 ? (
        <p className="warn danger" role="alert">
          You have used all your credits: assistants stop answering until {resets} or until you upgrade.
        </p>
      ) : ratio >= 0.8 ? (
        <p className="warn" role="status">
          You have used {Math.floor(ratio * 100)}% of your credits for this period.
        </p>
      ) : null}
    </>
  );
}
