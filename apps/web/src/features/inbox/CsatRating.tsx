import { Trans, useTranslation } from 'react-i18next';
import { formatDateTime } from '../../shell/dates.ts';
import type { InboxConversation } from './types.ts';

/**
 * The customer's answer to the satisfaction survey (docs/csat.md), once given: the rating out of
 * five, in words and stars, their comment and when they rated. Nothing while there is none.
 */
export function CsatRating({ conversation: c }: { conversation: InboxConversation }) {
  const { t } = useTranslation('inbox');
  const csat = c.csat;
  if (!csat) return null;
  return (
    <section className="card stack" aria-labelledby="csat-rating-h">
      <h2 id="csat-rating-h">{t('csat.title')}</h2>
      <p>
        <span aria-hidden="true">
          {'★'.repeat(csat.rating)}
          {'☆'.repeat(5 - csat.rating)}
        </span>{' '}
        <strong>{t('csat.rating', { rating: csat.rating })}</strong>
      </p>
      {csat.comment && <p>“{csat.comment}”</p>}
      <p className="muted">
        <Trans
          t={t}
          i18nKey="csat.rated"
          values={{ when: formatDateTime(csat.ratedAt) }}
          components={{ time: <time dateTime={csat.ratedAt} /> }}
        />
      </p>
    </section>
  );
}
