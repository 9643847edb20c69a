import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { type Data, get, type SearchHit } from '../../api.ts';
import { Empty, ErrorText, Loading } from '../../shell/ui.tsx';
import { whyWords } from './why.ts';

/** Search the knowledge exactly as the chat does (GET /api/assistants/{id}/search). */
export function SearchBox({ assistantId }: { assistantId: string }) {
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
      <h2>Search the knowledge</h2>
      <search>
        <form onSubmit={onSubmit} className="row">
          <label className="grow">
            <span className="sr-only">Search question</span>
            <input name="q" type="search" maxLength={2000} placeholder="A question a customer might ask" />
          </label>
          <button type="submit">Search</button>
        </form>
      </search>
      {search.isFetching && <Loading label="Searching…" />}
      <ErrorText error={search.error} />
      {search.data && search.data.data.length === 0 && (
        <Empty title="Nothing found">
          <p>No passage matches. Add knowledge that answers this question.</p>
        </Empty>
      )}
      {search.data && search.data.data.length > 0 && (
        <ol className="hits" aria-label="Search results">
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
  const share = best > 0 ? Math.max(0, Math.min(1, score / best)) : 0;
  return (
    <meter
      className="relevance"
      min={0}
      max={1}
      value={share}
      title={`Score ${score.toFixed(3)}`}
      aria-label={
        rank === 1 ? 'Relevance: best match' : `Relevance: ${Math.round(share * 100)}% of the best match`
      }
    />
  );
}
