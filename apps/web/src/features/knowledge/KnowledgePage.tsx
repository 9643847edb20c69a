import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { type Assistant, canManage, type Data, get, type OffsetPage, type Source } from '../../api.ts';
import { useWorkspaces } from '../../session.ts';
import { Empty, ErrorText, Loading, Pager } from '../../shell/ui.tsx';
import { AddSource } from './AddSource.tsx';
import { SearchBox } from './SearchBox.tsx';

const LIMIT = 20;
/** How often the list is re-read while a source is still being ingested. */
const POLL_MS = 1000;

/** An assistant's knowledge (docs/knowledge.md): add text and Q&A, watch ingestion, search. */
export function KnowledgePage() {
  const { ws = '', id = '' } = useParams();
  const role = useWorkspaces().data?.data.find((w) => w.id === ws)?.role;
  const [offset, setOffset] = useState(0);
  const assistant = useQuery({
    queryKey: ['assistant', id],
    queryFn: () => get<Data<Assistant>>(`/api/assistants/${id}`),
  });
  const sources = useQuery({
    queryKey: ['sources', id, offset],
    queryFn: () => get<OffsetPage<Source>>(`/api/assistants/${id}/sources?limit=${LIMIT}&offset=${offset}`),
    placeholderData: keepPreviousData,
    // Live status: poll only while something is pending or processing.
    refetchInterval: (q) =>
      q.state.data?.data.some((s) => s.status === 'pending' || s.status === 'processing') ? POLL_MS : false,
  });
  return (
    <section>
      <p className="crumbs">
        <Link to={`/w/${ws}/assistants`}>Assistants</Link> ›{' '}
        <Link to={`/w/${ws}/assistants/${id}/chat`}>Chat</Link>
      </p>
      <h1>Knowledge of {assistant.data?.data.name ?? 'the assistant'}</h1>
      <ErrorText error={assistant.error} />
      <div className="grid">
        <div>
          <h2>Sources</h2>
          {sources.isPending && <Loading />}
          <ErrorText error={sources.error} />
          {sources.data?.total === 0 && (
            <Empty title="No knowledge yet">
              <p>
                {canManage(role)
                  ? 'Add some text or questions and answers: the assistant answers from them.'
                  : 'An owner or admin can add knowledge to this assistant.'}
              </p>
            </Empty>
          )}
          {sources.data && sources.data.data.length > 0 && (
            <ul className="list" aria-label="Sources">
              {sources.data.data.map((s) => (
                <li key={s.id} className="card source">
                  <strong>{s.name}</strong> <span className="muted">({s.type})</span>
                  <span className={`badge ${s.status}`}>{s.status}</span>
                  <span className="muted">
                    {s.chunkCount} {s.chunkCount === 1 ? 'passage' : 'passages'}
                  </span>
                  {s.status === 'failed' && s.error && <p className="error">{s.error}</p>}
                </li>
              ))}
            </ul>
          )}
          {sources.data && (
            <Pager offset={offset} limit={LIMIT} total={sources.data.total} onChange={setOffset} />
          )}
          <SearchBox assistantId={id} />
        </div>
        {canManage(role) && <AddSource assistantId={id} />}
      </div>
    </section>
  );
}
