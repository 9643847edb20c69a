import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { type Data, get, type OffsetPage, patch, post } from '../../api.ts';
import { useSession, useWorkspaces } from '../../session.ts';
import { formatDateTime } from '../../shell/dates.ts';
import { Empty, ErrorText, Loading, Pager } from '../../shell/ui.tsx';
import { explain } from '../contacts/types.ts';
import { nameOf, useMembers } from '../inbox/directory.ts';
import { ConfirmButton } from '../members/ConfirmButton.tsx';
import { TicketFields, ticketFieldsOf, WordOptions } from './TicketFields.tsx';
import { PRIORITY_WORDS, STATUS_WORDS, type Ticket, type TicketPriority, ticketsPath } from './types.ts';
import '../contacts/crm.css';

const LIMIT = 20;

/**
 * The workspace's support tickets (docs/dashboard.md "Contacts and tickets"): filters by status and
 * priority (and by conversation, from a conversation's link), create, and change status, priority
 * and assignee. `closed` is final: a closed ticket is shown read-only. Guests read only.
 */
export function TicketsPage() {
  const { t } = useTranslation('tickets');
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
  const heading = filtered ? t('matching') : t('all');
  return (
    <section>
      <h1>{t('title')}</h1>
      <p className="muted">{t('intro')}</p>
      <div className="grid">
        <div>
          <form className="crm-filters" aria-label={t('filters.label')} onSubmit={(e) => e.preventDefault()}>
            <label>
              {t('fields.status')}
              <select value={status} onChange={(e) => setFilter('status', e.target.value)}>
                <option value="">{t('filters.any')}</option>
                <WordOptions words={STATUS_WORDS} />
              </select>
            </label>
            <label>
              {t('fields.priority')}
              <select value={priority} onChange={(e) => setFilter('priority', e.target.value)}>
                <option value="">{t('filters.any')}</option>
                <WordOptions words={PRIORITY_WORDS} />
              </select>
            </label>
            {conversation && (
              <p>
                <Trans
                  t={t}
                  i18nKey="filters.ofConversation"
                  components={{ a: <Link to={`/w/${ws}/inbox/${conversation}`} /> }}
                />
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
                {t('filters.clear')}
              </button>
            )}
          </form>
          <h2>{list.data ? t('counted', { heading, count: list.data.total }) : heading}</h2>
          {list.isPending && <Loading />}
          <ErrorText error={list.error} />
          {list.data?.total === 0 && (
            <Empty title={filtered ? t('noMatch') : t('none')}>
              <p>{filtered ? t('noMatchText') : t('noneText')}</p>
            </Empty>
          )}
          {list.data && list.data.data.length > 0 && (
            <ul className="list" aria-label={t('list')}>
              {list.data.data.map((ticket) => (
                <TicketRow key={ticket.id} ws={ws} ticket={ticket} canWrite={canWrite} />
              ))}
            </ul>
          )}
          {list.data && <Pager page={list.data} onChange={setOffset} />}
        </div>
        {canWrite ? <TicketForm ws={ws} /> : <p className="muted">{t('guests')}</p>}
      </div>
    </section>
  );
}

function TicketRow({ ws, ticket, canWrite }: { ws: string; ticket: Ticket; canWrite: boolean }) {
  const { t } = useTranslation('tickets');
  const qc = useQueryClient();
  const members = useMembers(ws);
  const me = useSession().data?.id;
  const change = useMutation({
    mutationFn: (body: Partial<Pick<Ticket, 'status' | 'priority' | 'assigneeId'>>) =>
      patch<Data<Ticket>>(`${ticketsPath(ws)}/${ticket.id}`, body),
    onSettled: () => qc.invalidateQueries({ queryKey: ['tickets', ws] }),
  });
  const assignee = nameOf(members.data?.data, ticket.assigneeId);
  const closed = ticket.status === 'closed';
  const editable = canWrite && !closed;
  const facts = [
    t('row.opened', { date: formatDateTime(ticket.createdAt) }),
    ...(ticket.resolvedAt ? [t('row.resolved', { date: formatDateTime(ticket.resolvedAt) })] : []),
    ...(editable
      ? []
      : [
          !assignee
            ? t('row.unassigned')
            : ticket.assigneeId === me
              ? t('row.assignedToYou')
              : t('row.assignedTo', { name: assignee }),
        ]),
  ];
  return (
    <li className="card crm-item" aria-label={ticket.subject}>
      <p>
        <strong>{ticket.subject}</strong>{' '}
        <span className={`badge ticket-${ticket.status}`}>{STATUS_WORDS[ticket.status]}</span>{' '}
        <span className={`badge priority-${ticket.priority}`}>{PRIORITY_WORDS[ticket.priority]}</span>
      </p>
      {ticket.description && <p className="crm-description">{ticket.description}</p>}
      <p className="muted">
        {facts.join(' · ')}
        {ticket.conversationId && (
          <>
            {' · '}
            <Link to={`/w/${ws}/inbox/${ticket.conversationId}`}>{t('row.conversation')}</Link>
          </>
        )}
      </p>
      {closed && <p className="muted">{t('row.closed')}</p>}
      {editable && (
        <div className="ticket-controls">
          <label>
            {t('fields.status')}
            <select
              value={ticket.status}
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
            {t('fields.priority')}
            <select
              value={ticket.priority}
              disabled={change.isPending}
              onChange={(e) => change.mutate({ priority: e.target.value as TicketPriority })}
            >
              <WordOptions words={PRIORITY_WORDS} />
            </select>
          </label>
          <label>
            {t('fields.assignee')}
            <select
              value={ticket.assigneeId ?? ''}
              disabled={change.isPending}
              onChange={(e) => change.mutate({ assigneeId: e.target.value || null })}
            >
              <option value="">{t('fields.nobody')}</option>
              {ticket.assigneeId && !members.data?.data.some((m) => m.userId === ticket.assigneeId) && (
                <option value={ticket.assigneeId}>{assignee}</option>
              )}
              {members.data?.data.map((m) => (
                <option key={m.userId} value={m.userId}>
                  {m.name}
                </option>
              ))}
            </select>
          </label>
          <ConfirmButton
            label={t('row.close')}
            ariaLabel={t('row.closeName', { subject: ticket.subject })}
            question={t('row.closeQuestion')}
            confirmLabel={t('row.closeConfirm')}
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
  const { t } = useTranslation('tickets');
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
      <h2 id="new-ticket-title">{t('form.title')}</h2>
      <TicketFields />
      <label>
        {t('fields.assignee')}
        <select name="assigneeId" defaultValue="">
          <option value="">{t('fields.nobody')}</option>
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
          {t('form.submit')}
        </button>
      </div>
    </form>
  );
}
