import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { get, type OffsetPage } from '../../api.ts';
import { formatDateTime as formatWhen } from '../../shell/dates.ts';
import { Empty, ErrorText, Loading, Pager } from '../../shell/ui.tsx';
import { formAPath, type SmsSession } from './types.ts';

const LIMIT = 10;

/** The assistant's SMS sessions, most recent activity first, as the API orders them. */
export function SmsSessions({ ws, id }: { ws: string; id: string }) {
  const { t } = useTranslation('sms');
  const [offset, setOffset] = useState(0);
  const list = useQuery({
    queryKey: ['sms-sessions', id, offset],
    queryFn: () => get<OffsetPage<SmsSession>>(`${formAPath(id)}/sessions?limit=${LIMIT}&offset=${offset}`),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });
  return (
    <section className="card stack" aria-labelledby="sms-sessions-title">
      <div className="row">
        <h2 id="sms-sessions-title">
          {list.data ? t('sessions.titleCount', { count: list.data.total }) : t('sessions.title')}
        </h2>
        <button type="button" onClick={() => void list.refetch()} disabled={list.isFetching}>
          {list.isFetching ? t('sessions.refreshing') : t('sessions.refresh')}
        </button>
      </div>
      {list.isPending && <Loading />}
      <ErrorText error={list.error} />
      {list.data?.total === 0 && (
        <Empty title={t('sessions.empty')}>
          <p>{t('sessions.emptyText')}</p>
        </Empty>
      )}
      {list.data && list.data.data.length > 0 && (
        <ul className="list" aria-label={t('sessions.list')}>
          {list.data.data.map((s) => (
            <li
              key={s.id}
              className="sms-session"
              aria-label={t('sessions.session', { number: s.phoneNumber })}
            >
              <p>
                <strong>{s.phoneNumber}</strong>{' '}
                <span className={`badge${s.status === 'active' ? ' ready' : ''}`}>
                  {s.status === 'active' ? t('sessions.active') : t('sessions.ended')}
                </span>
              </p>
              <p className="muted">
                {t('sessions.meta', {
                  count: s.messageCount,
                  started: formatWhen(s.startedAt),
                  last: formatWhen(s.lastMessageAt),
                })}
              </p>
              {s.conversationId && (
                <Link to={`/w/${ws}/inbox/${s.conversationId}`}>{t('sessions.open')}</Link>
              )}
            </li>
          ))}
        </ul>
      )}
      {list.data && <Pager page={list.data} onChange={setOffset} />}
    </section>
  );
}
