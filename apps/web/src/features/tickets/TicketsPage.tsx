import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { type Data, get, type OffsetPage, patch, post } from '../../api.ts';
import { useSession, useWorkspaces } from '../../session.ts';
import { Empty, ErrorText, Loading, Pager } from '../../shell/ui.tsx';
import { explain } from '../contacts/types.ts';
import { nameOf, useMembers } from '../inbox/directory.ts';
import { ConfirmButton } from '../members/ConfirmButton.tsx';
import { TicketFields, ticketFieldsOf, WordOptions } from './TicketFields.tsx';
import { PRIORITY_WORDS, STATUS_WORDS, type Ticket, type TicketPriority, ticketsPath } from './types.ts';
import '../contacts/crm.css';
import { formatDateTime } from '../../shell/dates.ts';

const LIMIT = 20;

/**
 * The workspace's support tickets (docs/dashboard.md "Contacts and tickets"): filters by status and
 * priority (and by conversation, from a conversation's link), create, and change status, priority
 * and assignee. `closed` is final: a closed ticket is shown read-only. Guests read only.
 */
export function TicketsPage() {
  const { ws = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const role = useWorkspaces().data?.data.find((w) => w.id === ws)?.role;
  const canWrite = role !== undefined && role !== 'guest';
  const [offset, setOffset] = useState(0);
  const status = params.get('status') ?? '';
  const priority = params.get('priority') ?? '';
  const conversation = params.get('conversation') ?? '';
  const query = new URLSearchParams({ limit: String(LIMIT), offset: String(offset) });
  if (status) query.set('status', status);
  if (priority) query.set('priority', priority);
  if (conversation) query.set('conversationId', conversation);
  const list = useQuery({
    queryKey: ['tickets', ws, query.toString()],
    queryFn: () => get<OffsetPage<Ticket>>(`${ticketsPath(ws)}?${query}`),
    placeholderData: keepPreviousData,
  });
  const setFilter = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
    setOffset(0);
  };
  const filtered = Boolean(status || priority || conversation);
  return (
    <section>
      <h1>Tickets</h1>
      <p className="muted">
        Requests that need a person: opened by the assistant, the widget, the API, from a conversation in the
        inbox, or here. Closing a ticket is final.
      </p>
      <div className="grid">
        <div>
          <form className="crm-filters" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
            <label>
              Status
              <select value={status} onChange={(e) => setFilter('status', e.target.value)}>
                <option value="">Any</option>
                <WordOptions words={STATUS_WORDS} />
              </select>
            </label>
            <label>
              Priority
              <select value={priority} onChange={(e) => setFilter('priority', e.target.value)}>
                <option value="">Any</option>
                <WordOptions words={PRIORITY_WORDS} />
              </select>
            </label>
            {conversation && (
              <p>
                Of one conversation (<Link to={`/w/${ws}/inbox/${conversation}`}>open it</Link>)
              </p>
            )}
            {filtered && (
              <button
                type="button"
                onClick={() => {
                  setParams({}, { replace: true });
                  setOffset(0);
                }}
              >
                Clear filters
              </button>
            )}
          </form>
          <h2>
            {filtered ? 'Matching tickets' : 'All tickets'}
            {list.data ? ` (${list.data.total})` : ''}
          </h2>
          {list.isPending && <Loading />}
          <ErrorText error={list.error} />
          {list.data?.total === 0 && (
            <Empty title={filtered ? 'No ticket matches these filters' : 'No tickets yet'}>
              <p>
                {filtered
                  ? 'Change or clear the filters.'
                  : 'Open one with the form, or from a conversation in the inbox.'}
              </p>
            </Empty>
          )}
          {list.data && list.data.data.length > 0 && (
            <ul className="list" aria-label="Tickets">
              {list.data.data.map((t) => (
                <TicketRow key={t.id} ws={ws} ticket={t} canWrite={canWrite} />
              ))}
            </ul>
          )}
          {list.data && <Pager page={list.data} onChange={setOffset} />}
        </div>
        {canWrite ? (
          <TicketForm ws={ws} />
        ) : (
          <p className="muted">Guests can read tickets; members, admins and owners open and change them.</p>
        )}
      </div>
    </section>
  );
}

function TicketRow({ ws, ticket: t, canWrite }: { ws: string; ticket: Ticket; canWrite: boolean }) {
  const qc = useQueryClient();
  const members = useMembers(ws);
  const me = useSession().data?.id;
  const change = useMutation({
    mutationFn: (body: Partial<Pick<Ticket, 'status' | 'priority' | 'assigneeId'>>) =>
      patch<Data<Ticket>>(`${ticketsPath(ws)}/${t.id}`, body),
    onSettled: () => qc.invalidateQueries({ queryKey: ['tickets', ws] }),
  });
  const assignee = nameOf(members.data?.data, t.assigneeId);
  const closed = t.status === 'closed';
  const editable = canWrite && !closed;
  return (
    <li className="card crm-item" aria-label={t.subject}>
      <p>
        <strong>{t.subject}</strong>{' '}
        <span className={`badge ticket-${t.status}`}>{STATUS_WORDS[t.status]}</span>{' '}
        <span className={`badge priority-${t.priority}`}>{PRIORITY_WORDS[t.priority]}</span>
      </p>
      {t.description && <p className="crm-description">{t.description}</p>}
      <p className="muted">
        Opened {formatDateTime(t.createdAt)}
        {t.resolvedAt && ` · resolved ${formatDateTime(t.resolvedAt)}`}
        {!editable &&
          ` · ${assignee ? `assigned to ${t.assigneeId === me ? 'you' : assignee}` : 'unassigned'}`}
        {t.conversationId && (
          <>
            {' · '}
            <Link to={`/w/${ws}/inbox/${t.conversationId}`}>Conversation</Link>
          </>
        )}
      </p>
      {closed && <p className="muted">Closed tickets are final and cannot be changed.</p>}
      {editable && (
        <div className="ticket-controls">
          <label>
            Status
            <select
              value={t.status}
              disabled={change.isPending}
              onChange={(e) => change.mutate({ status: e.target.value as Ticket['status'] })}
            >
              {(['open', 'pending', 'resolved'] as const).map((s) => (
                <option key={s} value={s}>
                  {STATUS_WORDS[s]}
                </option>
              ))}
            </select>
          </label>
          <label>
            Priority
            <select
              value={t.priority}
              disabled={change.isPending}
              onChange={(e) => change.mutate({ priority: e.target.value as TicketPriority })}
            >
              <WordOptions words={PRIORITY_WORDS} />
            </select>
          </label>
          <label>
            Assignee
            <select
              value={t.assigneeId ?? ''}
              disabled={change.isPending}
              onChange={(e) => change.mutate({ assigneeId: e.target.value || null })}
            >
              <option value="">Nobody</option>
              {t.assigneeId && !members.data?.data.some((m) => m.userId === t.assigneeId) && (
                <option value={t.assigneeId}>{assignee}</option>
              )}
              {members.data?.data.map((m) => (
                <option key={m.userId} value={m.userId}>
                  {m.name}
                </option>
              ))}
            </select>
          </label>
          <ConfirmButton
            label="Close ticket"
            ariaLabel={`Close ticket ${t.subject}`}
            question="Close it for good? A closed ticket cannot be changed or reopened."
            confirmLabel="Close for good"
            pending={change.isPending}
            onConfirm={() => change.mutate({ status: 'closed' })}
          />
        </div>
      )}
      <ErrorText error={explain(change.error, 'tickets')} />
    </li>
  );
}

function TicketForm({ ws }: { ws: string }) {
  const qc = useQueryClient();
  const members = useMembers(ws);
  const create = useMutation({
    mutationFn: (body: Record<string, string>) => post<Data<Ticket>>(ticketsPath(ws), body),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['tickets', ws] }),
  });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const body: Record<string, string> = ticketFieldsOf(f);
    const assigneeId = String(f.get('assigneeId') ?? '');
    if (assigneeId) body.assigneeId = assigneeId;
    create.mutate(body, { onSuccess: () => form.reset() });
  };
  return (
    <form className="card stack" onSubmit={onSubmit} aria-labelledby="new-ticket-title">
      <h2 id="new-ticket-title">Open a ticket</h2>
      <TicketFields />
      <label>
        Assignee
        <select name="assigneeId" defaultValue="">
          <option value="">Nobody</option>
          {members.data?.data.map((m) => (
            <option key={m.userId} value={m.userId}>
              {m.name}
            </option>
          ))}
        </select>
      </label>
      <ErrorText error={explain(create.error, 'tickets')} />
      <div>
        <button type="submit" className="primary" disabled={create.isPending}>
          Open ticket
        </button>
      </div>
    </form>
  );
}
