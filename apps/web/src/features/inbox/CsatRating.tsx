import { formatDateTime } from '../../shell/dates.ts';
import type { InboxConversation } from './types.ts';

/**
 * The customer's answer to the satisfaction survey (docs/csat.md), once given: the rating out of
 * five, in words and stars, their comment and when they rated. Nothing while there is none.
 */
export function CsatRating({ conversation: c }: { conversation: InboxConversation }) {
  const csat = c.csat;
  if (!csat) return null;
  return (
    <section className="card stack" aria-labelledby="csat-rating-h">
      <h2 id="csat-rating-h">Satisfaction</h2>
      <p>
        <span aria-hidden="true">
          {'★'.repeat(csat.rating)}
          {'☆'.repeat(5 - csat.rating)}
        </span>{' '}
        <strong>Customer rating: {csat.rating}/5</strong>
      </p>
      {csat.comment && <p>“{csat.comment}”</p>}
      <p className="muted">
        Rated <time dateTime={csat.ratedAt}>{formatDateTime(csat.ratedAt)}</time>
      </p>
    </section>
  );
}
