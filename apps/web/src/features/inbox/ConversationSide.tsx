import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type Data, get, type OffsetPage, post } from '../../api.ts';
import { ErrorText } from '../../shell/ui.tsx';
import { type Contact, contactsPath } from '../contacts/types.ts';
import { LabelChips } from '../labels/LabelChips.tsx';
import { TicketFields, ticketFieldsOf } from '../tickets/TicketFields.tsx';
import { PRIORITY_WORDS, type Ticket, type TicketPriority, ticketsPath } from '../tickets/types.ts';
import { type InboxConversation, inboxPath } from './types.ts';

/** The conversation's tickets, and a new one from it (tickets/TicketFields.tsx). */
export function Tickets({
  ws,
  conversation: c,
  canAnswer,
}: {
  ws: string;
  conversation: InboxConversation;
  canAnswer: boolean;
}) {
  const { t } = useTranslation('inbox');
  const qc = useQueryClient();
  const tickets = useQuery({
    queryKey: ['tickets', ws, 'conversation', c.id],
    queryFn: () => get<OffsetPage<Ticket>>(`${ticketsPath(ws)}?conversationId=${c.id}&limit=20`),
  });
  const [open, setOpen] = useState(false);
  const create = useMutation({
    mutationFn: (body: { subject: string; description?: string; priority: TicketPriority }) =>
      post<Data<Ticket>>(`${inboxPath}/${c.id}/tickets?workspaceId=${ws}`, body),
    onSuccess: () => {
      setOpen(false);
      void qc.invalidateQueries({ queryKey: ['tickets', ws] });
    },
  });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    create.mutate(ticketFieldsOf(new FormData(e.currentTarget)));
  };
  const list = tickets.data?.data ?? [];
  return (
    <div className="card stack">
      <h2>{t('tickets.title')}</h2>
      <ErrorText error={tickets.error} />
      {tickets.isSuccess && list.length === 0 && <p className="muted">{t('tickets.none')}</p>}
      {list.length > 0 && (
        <ul className="list" aria-label={t('tickets.list')}>
          {list.map((ticket) => (
            <li key={ticket.id}>
              <Link to={`/w/${ws}/tickets?conversation=${c.id}`}>{ticket.subject}</Link>{' '}
              <span className={`badge ticket-${ticket.status}`}>{t(`tickets.status.${ticket.status}`)}</span>{' '}
              <span className="muted">{PRIORITY_WORDS[ticket.priority]}</span>
            </li>
          ))}
        </ul>
      )}
      {canAnswer && !open && (
        <div>
          <button type="button" onClick={() => setOpen(true)}>
            {t('tickets.create')}
          </button>
        </div>
      )}
      {canAnswer && open && (
        <form className="stack" onSubmit={onSubmit} aria-label={t('tickets.form')}>
          <TicketFields subject={c.title} />
          <ErrorText error={create.error} />
          <div className="row">
            <button type="submit" className="primary" disabled={create.isPending}>
              {t('tickets.submit')}
            </button>
            <button type="button" onClick={() => setOpen(false)}>
              {t('tickets.cancel')}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}

/** The customer, when the conversation is linked to a contact (the lead form, a ticket's email). */
export function ContactCard({ ws, contactId }: { ws: string; contactId: string }) {
  const { t } = useTranslation('inbox');
  const contact = useQuery({
    queryKey: ['contact', ws, contactId],
    queryFn: () => get<Data<Contact>>(`${contactsPath(ws)}/${contactId}`),
    retry: false,
  });
  const k = contact.data?.data;
  if (!k) return null;
  return (
    <div className="card stack">
      <h2>{t('customer.title')}</h2>
      <LabelChips labels={k.labels} name={t('customer.labels')} />
      <dl className="crm-fields" aria-label={t('customer.title')}>
        {(
          [
            ['name', t('customer.name'), k.name],
            ['email', t('customer.email'), k.email],
            ['phone', t('customer.phone'), k.phone],
            // A custom field is named by its own key, as the workspace wrote it.
            ...Object.entries(k.customFields).map(([key, v]) => [`field:${key}`, key, String(v)]),
          ] as Array<[string, string, string | null]>
        )
          .filter(([, , v]) => v)
          .map(([id, name, v]) => (
            <div key={id}>
              <dt>{name}</dt>
              <dd>{v}</dd>
            </div>
          ))}
      </dl>
    </div>
  );
}
