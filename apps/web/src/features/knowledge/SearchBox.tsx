import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { type Data, get, type SearchHit } from '../../api.ts';
import { Empty, ErrorText, Loading } from '../../shell/ui.tsx';

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
          {search.data.data.map((h) => (
            <li key={h.chunkId}>
              <strong>{h.heading || h.title}</strong>{' '}
              <span className="muted">score {h.score.toFixed(3)}</span>
              <p>{h.content}</p>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
