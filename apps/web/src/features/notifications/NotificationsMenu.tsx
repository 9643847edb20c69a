import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { type CursorPage, type Data, get, post } from '../../api.ts';
import { ErrorText, Loading } from '../../shell/ui.tsx';
import { ago, type Notification, pageOf } from './types.ts';
import './notifications.css';

const KEY = ['notifications', 'latest'] as const;
const LATEST = 50;

/**
 * The bell in the header (docs/dashboard.md "Notifications"): the latest 50 notifications, one
 * request that gives both the list and the unread count ("50+" when all 50 are unread and there
 * are more). Asked again every 30 s, on focus, on every page change and when opened.
 */
export function NotificationsMenu() {
  const { t } = useTranslation('notifications');
  const qc = useQueryClient();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const menu = useRef<HTMLDetailsElement>(null);
  const list = useQuery({
    queryKey: KEY,
    queryFn: () => get<CursorPage<Notification>>(`/api/notifications?limit=${LATEST}`),
    refetchInterval: 30_000,
  });
  // A new page: the menu closes and the count is asked again (an action may have caused one).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every change of page
  useEffect(() => {
    if (menu.current) menu.current.open = false;
    void qc.invalidateQueries({ queryKey: KEY });
  }, [pathname, qc]);

  const refresh = () => qc.invalidateQueries({ queryKey: ['notifications'] });
  const markRead = useMutation({
    mutationFn: (id: string) => post<Data<Notification>>(`/api/notifications/${id}/read`),
    onSuccess: refresh,
  });
  const markAll = useMutation({ mutationFn: () => post('/api/notifications/read-all'), onSuccess: refresh });
  const items = list.data?.data ?? [];
  const count = items.filter((n) => !n.readAt).length;
  const more = count === LATEST && list.data?.hasMore;
  const label = more ? `${LATEST}+` : String(count);

  const openItem = (n: Notification) => {
    if (!n.readAt) markRead.mutate(n.id);
    const to = pageOf(n);
    if (to) navigate(to);
  };

  return (
    <details
      className="bell"
      ref={menu}
      onToggle={(e) => {
        if ((e.currentTarget as HTMLDetailsElement).open) void refresh();
      }}
    >
      <summary aria-label={count ? t('bell.unread', { count: label }) : t('bell.label')}>
        <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20">
          <path
            fill="currentColor"
            d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1l-2-2Z"
          />
        </svg>
        {count > 0 && (
          <span className="count" data-testid="unread-count">
            {label}
          </span>
        )}
      </summary>
      <div className="menu-body notices">
        <div className="notices-head">
          <h2>{t('bell.title')}</h2>
          <button type="button" onClick={() => markAll.mutate()} disabled={markAll.isPending || count === 0}>
            {t('bell.markAll')}
          </button>
        </div>
        {list.isPending && <Loading />}
        <ErrorText error={list.error ?? markRead.error ?? markAll.error} />
        {list.data && items.length === 0 && <p className="muted">{t('bell.nothing')}</p>}
        {items.length > 0 && (
          <ul aria-label={t('bell.label')} className="notice-list">
            {items.map((n) => (
              <li key={n.id} className={n.readAt ? 'read' : 'unread'}>
                <div className="notice-text">
                  {pageOf(n) ? (
                    <button type="button" className="linkish" onClick={() => openItem(n)}>
                      {n.title}
                    </button>
                  ) : (
                    <strong>{n.title}</strong>
                  )}
                  <p>{n.body}</p>
                  <p className="muted">
                    {!n.readAt && <span className="sr-only">{t('bell.unreadMark')}</span>}
                    {ago(n.createdAt)}
                  </p>
                </div>
                {!n.readAt && (
                  <button
                    type="button"
                    aria-label={t('bell.markReadOf', { title: n.title })}
                    onClick={() => markRead.mutate(n.id)}
                    disabled={markRead.isPending}
                  >
                    {t('bell.markRead')}
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        <Link to="/account/notifications">{t('bell.settings')}</Link>
      </div>
    </details>
  );
}
