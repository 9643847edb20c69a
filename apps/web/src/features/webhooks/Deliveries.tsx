import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { type CursorPage, type Data, get, post } from '../../api.ts';
import { Empty, ErrorText, Loading } from '../../shell/ui.tsx';
import { type Delivery, eventMeaning, hooksPath, type Webhook, when } from './types.ts';

const LIMIT = 25;
/** While a delivery is pending (first attempt or retries under way), the log is re-read. */
const POLL_MS = 1500;

const BADGE: Record<Delivery['status'], string> = {
  pending: 'wh-pending',
  success: 'ready',
  failed: 'failed',
};

/** The webhook's delivery log, newest first, in cursor pages ("Load more"); retry one. */
export function Deliveries({ ws, hook }: { ws: string; hook: Webhook }) {
  const { t } = useTranslation(['webhooks', 'shell']);
  const log = useInfiniteQuery({
    queryKey: ['deliveries', ws, hook.id],
    queryFn: ({ pageParam }) =>
      get<CursorPage<Delivery>>(
        `${hooksPath(ws)}/${hook.id}/deliveries?limit=${LIMIT}${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`,
      ),
    initialPageParam: '',
    getNextPageParam: (last) => (last.hasMore ? (last.nextCursor ?? undefined) : undefined),
    refetchInterval: (q) =>
      q.state.data?.pages.some((p) => p.data.some((d) => d.status === 'pending')) ? POLL_MS : false,
  });
  const rows = log.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <div>
      <div className="row">
        <h2>{t('deliveries.title')}</h2>
        <button type="button" onClick={() => log.refetch()} disabled={log.isFetching}>
          {t('deliveries.refresh')}
        </button>
      </div>
      {log.isPending && <Loading />}
      <ErrorText error={log.error} />
      {log.data && rows.length === 0 && (
        <Empty title={t('deliveries.none')}>
          <p>
            {t('deliveries.noneText', {
              events: hook.events.includes('*')
                ? t('deliveries.anyEvent')
                : hook.events.map(eventMeaning).slice(0, 3).join('; '),
            })}
          </p>
        </Empty>
      )}
      {rows.length > 0 && (
        <ul className="list" aria-label={t('deliveries.title')}>
          {rows.map((d) => (
            <DeliveryItem key={d.id} ws={ws} hook={hook} delivery={d} />
          ))}
        </ul>
      )}
      {log.hasNextPage && (
        <button type="button" onClick={() => log.fetchNextPage()} disabled={log.isFetchingNextPage}>
          {log.isFetchingNextPage ? t('shell:ui.loading') : t('deliveries.loadMore')}
        </button>
      )}
    </div>
  );
}

function DeliveryItem({ ws, hook, delivery: d }: { ws: string; hook: Webhook; delivery: Delivery }) {
  const { t } = useTranslation('webhooks');
  const qc = useQueryClient();
  const retry = useMutation({
    mutationFn: () => post<Data<Delivery>>(`${hooksPath(ws)}/${hook.id}/deliveries/${d.id}/retry`),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['deliveries', ws, hook.id] }),
  });
  const code =
    d.statusCode === null ? t('deliveries.noResponse') : t('deliveries.http', { code: d.statusCode });
  return (
    <li className="card wh-delivery">
      <div className="wh-delivery-head">
        <code>{d.event}</code>
        <span className={`badge ${BADGE[d.status]}`}>{t(`deliveries.status.${d.status}`)}</span>
        <span className="muted">{code}</span>
        <span className="muted">{t('deliveries.attempts', { count: d.attempt })}</span>
        <time className="muted" dateTime={d.createdAt}>
          {when(d.createdAt)}
        </time>
      </div>
      <details>
        <summary>{t('deliveries.details')}</summary>
        <dl className="wh-facts">
          <div>
            <dt>{t('deliveries.eventId')}</dt>
            <dd>
              <code>{d.eventId}</code> <span className="muted">{t('deliveries.eventIdHint')}</span>
            </dd>
          </div>
          <div>
            <dt>{t('deliveries.deliveryId')}</dt>
            <dd>
              <code>{d.id}</code>
            </dd>
          </div>
          <div>
            <dt>{t('deliveries.lastAttempt')}</dt>
            <dd>
              {d.statusCode === null
                ? t('deliveries.noResponseWhy')
                : d.duration === null
                  ? t('deliveries.answered', { code: d.statusCode })
                  : t('deliveries.answeredIn', { code: d.statusCode, ms: d.duration })}
            </dd>
          </div>
        </dl>
      </details>
      {d.status === 'pending' ? (
        <p className="muted">{t('deliveries.underWay')}</p>
      ) : hook.active ? (
        <div className="row">
          <button type="button" onClick={() => retry.mutate()} disabled={retry.isPending}>
            {t('deliveries.retry')}
          </button>
          {retry.isSuccess && (
            <span role="status" className="muted">
              {t('deliveries.retrying')}
            </span>
          )}
        </div>
      ) : (
        <p className="muted">{t('deliveries.turnOnToRetry')}</p>
      )}
      <ErrorText error={retry.error} />
    </li>
  );
}
