import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { type Assistant, canManage, type Data, get, type OffsetPage } from '../../api.ts';
import { useWorkspaces } from '../../session.ts';
import { Empty, ErrorText, Loading, Pager } from '../../shell/ui.tsx';
import { AssistantNav } from '../assistants/AssistantNav.tsx';
import { AddSource } from './AddSource.tsx';
import { SearchBox } from './SearchBox.tsx';
import { SourceList } from './SourceList.tsx';
import type { SourceDetail } from './types.ts';
import './knowledge.css';

const LIMIT = 20;
/** How often the list is re-read while a source is still being ingested. */
const POLL_MS = 1000;

/**
 * An assistant's knowledge (docs/knowledge.md): add Q&A, files, websites, text, spreadsheets and
 * stores; watch ingestion with its passage count; re-sync, delete; search as the chat does.
 */
export function KnowledgePage() {
  const { t } = useTranslation('knowledge');
  const { ws = '', id = '' } = useParams();
  const role = useWorkspaces().data?.data.find((w) => w.id === ws)?.role;
  const [offset, setOffset] = useState(0);
  const assistant = useQuery({
    queryKey: ['assistant', id],
    queryFn: () => get<Data<Assistant>>(`/api/assistants/${id}`),
  });
  const sources = useQuery({
    queryKey: ['sources', id, offset],
    queryFn: () =>
      get<OffsetPage<SourceDetail>>(`/api/assistants/${id}/sources?limit=${LIMIT}&offset=${offset}`),
    placeholderData: keepPreviousData,
    // Live status: poll only while something is pending or processing, or being re-indexed.
    refetchInterval: (q) =>
      q.state.data?.data.some(
        (s) => s.status === 'pending' || s.status === 'processing' || s.reindexPending > 0,
      )
        ? POLL_MS
        : false,
  });
  const page = sources.data;
  const name = assistant.data?.data.name;
  // The last source of the last page was deleted: show the page before it.
  useEffect(() => {
    if (page && page.data.length === 0 && page.total > 0 && offset > 0) {
      setOffset(Math.max(0, Math.floor((page.total - 1) / LIMIT) * LIMIT));
    }
  }, [page, offset]);
  return (
    <section>
      <h1>{name ? t('title', { name }) : t('titleUnnamed')}</h1>
      <AssistantNav ws={ws} id={id} />
      <ErrorText error={assistant.error} />
      <div className="grid knowledge">
        <div>
          <h2>{page && page.total > 0 ? t('sourcesCounted', { count: page.total }) : t('sources')}</h2>
          {sources.isPending && <Loading />}
          <ErrorText error={sources.error} />
          {page?.total === 0 && (
            <Empty title={t('empty.title')}>
              <p>{canManage(role) ? t('empty.manager') : t('empty.member')}</p>
            </Empty>
          )}
          {page && page.data.length > 0 && (
            <SourceList assistantId={id} sources={page.data} canEdit={canManage(role)} />
          )}
          {page && <Pager page={page} onChange={setOffset} />}
          <SearchBox assistantId={id} />
        </div>
        {canManage(role) && <AddSource assistantId={id} />}
      </div>
    </section>
  );
}
