import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { type AssistantItem, canManage, get, type OffsetPage } from '../../api.ts';
import { useWorkspaces } from '../../session.ts';
import { Empty, ErrorText, Loading, Pager } from '../../shell/ui.tsx';

const LIMIT = 20;

/** The workspace's assistants, paginated (docs/dashboard.md). */
export function AssistantsPage() {
  const { t } = useTranslation('assistants');
  const { ws = '' } = useParams();
  const role = useWorkspaces().data?.data.find((w) => w.id === ws)?.role;
  const [offset, setOffset] = useState(0);
  const list = useQuery({
    queryKey: ['assistants', ws, offset],
    queryFn: () =>
      get<OffsetPage<AssistantItem>>(`/api/assistants?workspaceId=${ws}&limit=${LIMIT}&offset=${offset}`),
    placeholderData: keepPreviousData,
  });
  return (
    <section>
      <div className="row">
        <h1>{t('list.title')}</h1>
        {canManage(role) && (
          <Link className="button primary" to={`/w/${ws}/assistants/new`}>
            {t('list.new')}
          </Link>
        )}
      </div>
      {list.isPending && <Loading />}
      <ErrorText error={list.error} />
      {list.data && list.data.total === 0 && (
        <Empty title={t('list.none')}>
          <p>{canManage(role) ? t('list.noneManage') : t('list.noneRead')}</p>
        </Empty>
      )}
      {list.data && list.data.data.length > 0 && (
        <ul className="list">
          {list.data.data.map((a) => (
            <li key={a.id} className="card">
              <h2>{a.name}</h2>
              <p className="muted">{t('list.visibleTo', { visibility: t(`visibility.${a.visibility}`) })}</p>
              <p className="links">
                <Link to={`/w/${ws}/assistants/${a.id}/chat`}>{t('list.chat')}</Link>
                <Link to={`/w/${ws}/assistants/${a.id}/knowledge`}>{t('list.knowledge')}</Link>
                {canManage(role) && <Link to={`/w/${ws}/assistants/${a.id}/widget`}>{t('list.widget')}</Link>}
                {canManage(role) && <Link to={`/w/${ws}/assistants/${a.id}`}>{t('list.edit')}</Link>}
              </p>
            </li>
          ))}
        </ul>
      )}
      {list.data && <Pager page={list.data} onChange={setOffset} />}
    </section>
  );
}
