import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Data, get, type SearchHit } from '../../api.ts';
import { formatNumber, formatPercent } from '../../i18n/format.ts';
import { Empty, ErrorText, Loading } from '../../shell/ui.tsx';
import { whyWords } from './why.ts';

/** Search the knowledge exactly as the chat does (GET /api/assistants/{id}/search). */
export function SearchBox({ assistantId }: { assistantId: string }) {
  const { t } = useTranslation('knowledge');
  const [q, setQ] = useState('');
  const search = useQuery({
    queryKey: ['search', assistantId, q],
    queryFn: () =>
      get<Data<SearchHit[]>>(`/api/assistants/${assistantId}/search?q=${encodeURIComponent(q)}&k=5`),
    enabled: q.length > 0,
  });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setQ(String(new FormData(e.currentTarget).get('q') ?? '').trim());
  };
  return (
    <div className="search">
      <h2>{t('search.title')}</h2>
      <search>
        <form onSubmit={onSubmit} className="row">
          <label className="grow">
            <span className="sr-only">{t('search.label')}</span>
            <input name="q" type="search" maxLength={2000} placeholder={t('search.placeholder')} />
          </label>
          <button type="submit">{t('search.submit')}</button>
        </form>
      </search>
      {search.isFetching && <Loading label={t('search.searching')} />}
      <ErrorText error={search.error} />
      {search.data && search.data.data.length === 0 && (
        <Empty title={t('search.nothing')}>
          <p>{t('search.nothingText')}</p>
        </Empty>
      )}
      {search.data && search.data.data.length > 0 && (
        <ol className="hits" aria-label={t('search.results')}>
          {search.data.data.map((h, i, all) => (
            <li key={h.chunkId}>
              <strong>{h.heading || h.title}</strong>{' '}
              <Relevance score={h.score} best={all[0]?.score ?? 0} rank={i + 1} />
              <Why hit={h} />
              <p>{h.content}</p>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

/** Why a passage ranked (why.ts), in words. */
function Why({ hit }: { hit: SearchHit }) {
  return (
    <p className="why">
      <small>{whyWords(hit)}</small>
    </p>
  );
}

/**
 * A hit's relevance as a bar against the best hit (ranks are the list's numbers); the raw score
 * only in the tooltip. Scores have no unit a reader could use, only their order and spacing.
 */
function Relevance({ score, best, rank }: { score: number; best: number; rank: number }) {
  const { t } = useTranslation('knowledge');
  const share = best > 0 ? Math.max(0, Math.min(1, score / best)) : 0;
  return (
    <meter
      className="relevance"
      min={0}
      max={1}
      value={share}
      title={t('search.score', {
        score: formatNumber(score, { minimumFractionDigits: 3, maximumFractionDigits: 3 }),
      })}
      aria-label={rank === 1 ? t('search.best') : t('search.share', { percent: formatPercent(share, 0) })}
    />
  );
}
