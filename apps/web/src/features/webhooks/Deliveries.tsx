import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { type CursorPage, type Data, get, post } from '../../api.ts';
import { Empty, ErrorText, Loading } from '../../shell/ui.tsx';
import { type Delivery, EVENTS, hooksPath, type Webhook, when } from './types.ts';

const LIMIT = 25;
/** While a delivery is pending (first attempt or retries under way), the log is re-read. */
const POLL_MS = 1500;

const STATUS_TEXT: Record<Delivery['status'], string> = {
  pending: 'pending',
  success: 'delivered',
  failed: 'failed',
};

const BADGE: Record<Delivery['status'], string> = {
  pending: 'wh-pending',
  success: 'ready',
  failed: 'failed',
};

/** The webhook's delivery log, newest first, in cursor pages ("Load more"); retry one. */
export function Deliveries({ ws, hook }: { ws: string; hook: Webhook }) {
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
        <h2>Deliveries</h2>
        <button type="button" onClick={() => log.refetch()} disabled={log.isFetching}>
          Refresh
        </button>
      </div>
      {log.isPending && <Loading />}
      <ErrorText error={log.error} />
      {log.data && rows.length === 0 && (
        <Empty title="No deliveries yet">
          <p>
            A delivery appears here when one of the webhook's events happens:{' '}
            {hook.events.includes('*')
              ? 'any event in this workspace'
              : hook.events
                  .map((e) => EVENTS.find((x) => x.name === e)?.what ?? e)
                  .slice(0, 3)
                  .join('; ')}
            .
          </p>
        </Empty>
      )}
      {rows.length > 0 && (
        <ul className="list" aria-label="Deliveries">
          {rows.map((d) => (
            <DeliveryItem key={d.id} ws={ws} hook={hook} delivery={d} />
          ))}
        </ul>
      )}
      {log.hasNextPage && (
        <button type="button" onClick={() => log.fetchNextPage()} disabled={log.isFetchingNextPage}>
          {log.isFetchingNextPage ? 'Loading…' : 'Load more'}
        </button>
      )}
    </div>
  );
}

function DeliveryItem({ ws, hook, delivery: d }: { ws: string; hook: Webhook; delivery: Delivery }) {
  const qc = useQueryClient();
  const retry = useMutation({
    mutationFn: () => post<Data<Delivery>>(`${hooksPath(ws)}/${hook.id}/deliveries/${d.id}/retry`),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['deliveries', ws, hook.id] }),
  });
  const code = d.statusCode === null ? 'no response' : `HTTP ${d.statusCode}`;
  return (
    <li className="card wh-delivery">
      <div className="wh-delivery-head">
        <code>{d.event}</code>
        <span className={`badge ${BADGE[d.status]}`}>{STATUS_TEXT[d.status]}</span>
        <span className="muted">{code}</span>
        <span className="muted">
          {d.attempt} {d.attempt === 1 ? 'attempt' : 'attempts'}
        </span>
        <time className="muted" dateTime={d.createdAt}>
          {when(d.createdAt)}
        </time>
      </div>
      <details>
        <summary>Details</summary>
        <dl className="wh-facts">
          <div>
            <dt>Event id</dt>
            <dd>
              <code>{d.eventId}</code>{' '}
              <span className="muted">(the webhook-id header; same on every retry)</span>
            </dd>
          </div>
          <div>
            <dt>Delivery id</dt>
            <dd>
              <code>{d.id}</code>
            </dd>
          </div>
          <div>
            <dt>Last attempt</dt>
            <dd>
              {d.statusCode === null
                ? 'no response (refused, unreachable, timed out, or not yet attempted)'
                : `answered ${d.statusCode}${d.duration === null ? '' : ` in ${d.duration} ms`}`}
            </dd>
          </div>
        </dl>
      </details>
      {d.status === 'pending' ? (
        <p className="muted">Attempts are under way; this updates by itself.</p>
      ) : hook.active ? (
        <div className="row">
          <button type="button" onClick={() => retry.mutate()} disabled={retry.isPending}>
            Retry
          </button>
          {retry.isSuccess && (
            <span role="status" className="muted">
              Sending again now
            </span>
          )}
        </div>
      ) : (
        <p className="muted">Turn the webhook back on to retry this delivery.</p>
      )}
      <ErrorText error={retry.error} />
    </li>
  );
}
