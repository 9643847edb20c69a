import { LANGUAGES } from '@parley/contract/languages';
import { type InfiniteData, type QueryClient, useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { type CursorPage, get } from '../../api.ts';
import { formatNumber, languageName } from '../../i18n/format.ts';
import { i18n } from '../../i18n/index.ts';
import { useSession } from '../../session.ts';
import { Empty, ErrorText, Loading } from '../../shell/ui.tsx';
import { LabelChips } from '../labels/LabelChips.tsx';
import { useLabels } from '../labels/types.ts';
import { useNow } from '../sla/clocks.ts';
import { SlaDue } from '../sla/SlaDue.tsx';
import { nameOf, useAssistants, useMembers } from './directory.ts';
import { useInboxStream } from './live.ts';
import {
  CHANNEL_WORDS,
  CHANNELS,
  type InboxConversation,
  inboxPath,
  statusWords,
  uniqueById,
  when,
} from './types.ts';
import { useUnread } from './unread.ts';
import './inbox.css';

const LIMIT = 25;

/**
 * The filters, kept in the address (`?status=handoff&assignee=unassigned`), so a view can be shared;
 * the order too (`?sort=sla`), which "Clear filters" keeps.
 */
const FILTERS = [
  'status',
  'channel',
  'language',
  'assistant',
  'assignee',
  'label',
  'confidence',
  'sla',
] as const;

/** The query of `GET /api/inbox/conversations` for the filters in the address. */
function listQuery(ws: string, params: URLSearchParams, me: string | undefined) {
  const q = new URLSearchParams({ workspaceId: ws, limit: String(LIMIT) });
  const status = params.get('status');
  const channel = params.get('channel');
  const assistant = params.get('assistant');
  const assignee = params.get('assignee');
  if (status) q.set('status', status);
  if (channel) q.set('channel', channel);
  const language = params.get('language');
  if (language) q.set('language', language);
  if (assistant) q.set('assistantId', assistant);
  const label = params.get('label');
  if (label) q.set('labelId', label);
  if (params.get('confidence') === 'low') q.set('lowConfidence', 'true');
  if (params.get('sla') === 'breached') q.set('slaBreached', 'true');
  // Each order pages by its own cursors: the pages of one are never continued in the other.
  if (params.get('sort') === 'sla') q.set('sort', 'sla');
  if (assignee === 'unassigned') q.set('unassigned', 'true');
  else if (assignee === 'me' && me) q.set('assigneeId', me);
  else if (assignee && assignee !== 'me') q.set('assigneeId', assignee);
  return q.toString();
}

/**
 * The shared inbox (docs/dashboard.md "Inbox"): every conversation a person may need to answer,
 * newest activity first or the SLA due soonest, with filters, unread counts, each one's SLA clock,
 * "Load more", and live changes from
 * `GET /api/inbox/stream` without a reload.
 */
export function InboxPage() {
  const { t } = useTranslation(['inbox', 'shell']);
  const { ws = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const me = useSession().data?.id;
  const members = useMembers(ws);
  const assistants = useAssistants(ws);
  const labels = useLabels(ws);
  const unread = useUnread(me);
  const qc = useQueryClient();
  const now = useNow();
  const query = listQuery(ws, params, me);
  const list = useInfiniteQuery({
    queryKey: ['inbox', ws, query],
    queryFn: ({ pageParam }) =>
      get<CursorPage<InboxConversation>>(
        `${inboxPath}?${query}${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`,
      ),
    initialPageParam: '',
    getNextPageParam: (last) => (last.hasMore ? (last.nextCursor ?? undefined) : undefined),
  });
  // Any change re-reads the list (the filters decide where a conversation now belongs); a burst of
  // changes (a streamed AI reply, several visitors at once) costs one read. A read in flight ("Load
  // more") is waited for, not cancelled. A member's availability changes no row (live.ts keeps it).
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => clearTimeout(pending.current ?? undefined), []);
  useInboxStream(ws, (e) => {
    // A conversation's new clocks show at once, before the list is read again.
    if (e.type === 'conversation.updated' || e.type === 'conversation.ended') setSla(qc, ws, e.conversation);
    if (e.type === 'member.updated' || pending.current) return;
    const reread = () => {
      if (qc.isFetching({ queryKey: ['inbox', ws] }) > 0) {
        pending.current = setTimeout(reread, 150);
        return;
      }
      pending.current = null;
      void qc.invalidateQueries({ queryKey: ['inbox', ws] });
    };
    pending.current = setTimeout(reread, 150);
  });
  const rows = uniqueById(list.data?.pages.flatMap((p) => p.data) ?? []);
  const setFilter = (name: (typeof FILTERS)[number] | 'sort', value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };
  const filtered = FILTERS.some((f) => params.get(f));
  const assistantName = (id: string) =>
    assistants.data?.data.find((a) => a.id === id)?.name ?? t('list.assistant');
  const any = <option value="">{t('filters.any')}</option>;
  return (
    <section>
      <h1>{t('list.title')}</h1>
      <p className="muted">{t('list.intro')}</p>
      <form className="inbox-filters" aria-label={t('filters.form')} onSubmit={(e) => e.preventDefault()}>
        <label>
          {t('filters.status')}
          <select value={params.get('status') ?? ''} onChange={(e) => setFilter('status', e.target.value)}>
            {any}
            <option value="open">{t('status.open')}</option>
            <option value="handoff">{t('filters.handedOff')}</option>
            <option value="closed">{t('status.closed')}</option>
          </select>
        </label>
        <label>
          {t('filters.channel')}
          <select value={params.get('channel') ?? ''} onChange={(e) => setFilter('channel', e.target.value)}>
            {any}
            {CHANNELS.map((channel) => (
              <option key={channel} value={channel}>
                {CHANNEL_WORDS[channel]}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('filters.language')}
          <select
            value={params.get('language') ?? ''}
            onChange={(e) => setFilter('language', e.target.value)}
          >
            {any}
            {LANGUAGES.map((l) => (
              <option key={l} value={l}>
                {languageName(l, i18n.language)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('filters.assistant')}
          <select
            value={params.get('assistant') ?? ''}
            onChange={(e) => setFilter('assistant', e.target.value)}
          >
            {any}
            {assistants.data?.data.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('filters.assignee')}
          <select
            value={params.get('assignee') ?? ''}
            onChange={(e) => setFilter('assignee', e.target.value)}
          >
            <option value="">{t('filters.anyone')}</option>
            <option value="me">{t('filters.me')}</option>
            <option value="unassigned">{t('filters.unassigned')}</option>
            {members.data?.data
              .filter((m) => m.role !== 'guest' && m.userId !== me)
              .map((m) => (
                <option key={m.userId} value={m.userId}>
                  {m.name}
                </option>
              ))}
          </select>
        </label>
        <label>
          {t('filters.label')}
          <select value={params.get('label') ?? ''} onChange={(e) => setFilter('label', e.target.value)}>
            {any}
            {labels.data?.data.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('filters.confidence')}
          <select
            value={params.get('confidence') ?? ''}
            onChange={(e) => setFilter('confidence', e.target.value)}
          >
            {any}
            <option value="low">{t('filters.lowConfidence')}</option>
          </select>
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={params.get('sla') === 'breached'}
            onChange={(e) => setFilter('sla', e.target.checked ? 'breached' : '')}
          />
          {t('filters.slaBreached')}
        </label>
        <label>
          {t('filters.sort')}
          <select value={params.get('sort') ?? ''} onChange={(e) => setFilter('sort', e.target.value)}>
            <option value="">{t('filters.newest')}</option>
            <option value="sla">{t('filters.slaSoonest')}</option>
          </select>
        </label>
        {filtered && (
          <button
            type="button"
            onClick={() =>
              setParams(params.get('sort') ? { sort: params.get('sort') ?? '' } : {}, { replace: true })
            }
          >
            {t('filters.clear')}
          </button>
        )}
      </form>
      {list.isPending && <Loading />}
      <ErrorText error={list.error} />
      {list.isSuccess && rows.length === 0 && (
        <Empty title={filtered ? t('list.noMatch') : t('list.none')}>
          <p>{filtered ? t('list.noMatchText') : t('list.noneText')}</p>
        </Empty>
      )}
      {rows.length > 0 && (
        <ul className="inbox-list" aria-label={t('list.conversations')}>
          {rows.map((c) => {
            const count = unread(c);
            const assignee = nameOf(members.data?.data, c.assigneeId);
            return (
              <li key={c.id} className={`inbox-row${count > 0 ? ' unread' : ''}`} data-conversation={c.id}>
                <Link to={`/w/${ws}/inbox/${c.id}`} className="inbox-title">
                  {c.channel === 'email' && <span aria-hidden="true">✉ </span>}
                  {c.title || t('list.untitled')}
                </Link>
                {count > 0 && (
                  <span className="unread-count" title={t('list.unreadTitle', { count })}>
                    {formatNumber(count)}
                    <span className="sr-only"> {t('list.unread')}</span>
                  </span>
                )}
                <span className={`badge status-${c.status}`}>{statusWords(c)}</span>
                <SlaDue sla={c.sla} now={now} />
                <LabelChips labels={c.labels} />
                <span className="inbox-meta muted">
                  {CHANNEL_WORDS[c.channel]} ·{' '}
                  {c.language && <>{languageName(c.language, i18n.language)} · </>}
                  {assistantName(c.assistantId)} ·{' '}
                  {assignee
                    ? c.assigneeId === me
                      ? t('list.assignedToYou')
                      : t('list.assignedTo', { name: assignee })
                    : t('list.unassigned')}{' '}
                  · {t('list.messages', { count: c.messageCount })} ·{' '}
                  <time dateTime={c.lastMessageAt ?? c.createdAt}>
                    {when(c.lastMessageAt ?? c.createdAt)}
                  </time>
                </span>
              </li>
            );
          })}
        </ul>
      )}
      {list.hasNextPage && (
        <button type="button" onClick={() => list.fetchNextPage()} disabled={list.isFetchingNextPage}>
          {list.isFetchingNextPage ? t('shell:ui.loading') : t('list.loadMore')}
        </button>
      )}
    </section>
  );
}

/** A conversation's `sla` from a stream event, into every cached page of the list that holds it. */
function setSla(qc: QueryClient, ws: string, changed: InboxConversation) {
  qc.setQueriesData<InfiniteData<CursorPage<InboxConversation>>>({ queryKey: ['inbox', ws] }, (old) =>
    old?.pages.some((p) => p.data.some((c) => c.id === changed.id))
      ? {
          ...old,
          pages: old.pages.map((p) => ({
            ...p,
            data: p.data.map((c) => (c.id === changed.id ? { ...c, sla: changed.sla } : c)),
          })),
        }
      : old,
  );
}
