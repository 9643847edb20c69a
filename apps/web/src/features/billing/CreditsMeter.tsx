import { type BillingSummary, dateOf } from './types.ts';

/**
 * Credits used against the period's allowance, with the two alert levels of docs/credits.md "Alerts" (about
 * 80% and 100%): below 80% plain, from 80% a warning, at 100% AI replies stop until the reset.
 */
export function CreditsMeter({ summary }: { summary: BillingSummary }) {
  const { used, limit, resetsAt } = summary.credits;
  const ratio = limit > 0 ? used / limit : 1;
  const level = ratio >= 1 ? 'full' : ratio >= 0.8 ? 'high' : 'ok';
  const resets = dateOf(resetsAt);
  return (
    <section className="card" aria-labelledby="meter-title">
      <h2 id="meter-title">Credits this period</h2>
      <p className="big" data-testid="credits-used">
        {used.toLocaleString()} <span className="muted">of {limit.toLocaleString()} used</span>
      </p>
      <meter
        className={`meter ${level}`}
        aria-label="Credits used"
        min={0}
        max={limit || 1}
        value={Math.min(used, limit || 1)}
        data-level={level}
      />
      <p className="muted">
        Resets on {resets}; unused credits do not roll over. Every AI reply costs one credit.
      </p>
      {level === 'full' ? (
        <p className="warn danger" role="alert">
          All credits are used: assistants stop answering until {resets} or until you upgrade.
        </p>
      ) : level === 'high' ? (
        <p className="warn" role="status">
          {Math.floor(ratio * 100)}% of this period's credits are used.
        </p>
      ) : null}
    </section>
  );
}
