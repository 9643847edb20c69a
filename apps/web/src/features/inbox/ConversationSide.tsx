import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
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
      <h2>Tickets</h2>
      <ErrorText error={tickets.error} />
      {tickets.isSuccess && list.length === 0 && <p className="muted">No ticket for this conversation.</p>}
      {list.length > 0 && (
        <ul className="list" aria-label="Tickets of this conversation">
          {list.map((t) => (
            <li key={t.id}>
              <Link to={`/w/${ws}/tickets?conversation=${c.id}`}>{t.subject}</Link>{' '}
              <span className={`badge ticket-${t.status}`}>{t.status}</span>{' '}
              <span className="muted">{PRIORITY_WORDS[t.priority]}</span>
            </li>
          ))}
        </ul>
      )}
      {canAnswer && !open && (
        <div>
          <button type="button" onClick={() => setOpen(true)}>
            Create a ticket
          </button>
        </div>
      )}
      {canAnswer && open && (
        <form className="stack" onSubmit={onSubmit} aria-label="New ticket">
          <TicketFields subject={c.title} />
          <ErrorText error={create.error} />
          <div className="row">
            <button type="submit" className="primary" disabled={create.isPending}>
              Create ticket
            </button>
            <button type="button" onClick={() => setOpen(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </div>
  );
}

/** The customer, when the conversation is linked to a contact (the lead form, a ticket's email). */
export function ContactCard({ ws, contactId }: { ws: string; contactId: string }) {
  const contact = useQuery({
    queryKey: ['contact', ws, contactId],
    queryFn: () => get<Data<Contact>>(`${contactsPath(ws)}/${contactId}`),
    retry: false,
  });
  const k = contact.data?.data;
  if (!k) return null;
  return (
    <div className="card stack">
      <h2>Customer</h2>
      <LabelChips labels={k.labels} name="Labels of the customer" />
      <dl className="crm-fields" aria-label="Customer">
        {(
          [
            ['Name', k.name],
            ['Email', k.email],
            ['Phone', k.phone],
            ...Object.entries(k.customFields).map(([key, v]) => [key, String(v)]),
          ] as Array<[string, string | null]>
        )
          .filter(([, v]) => v)
          .map(([key, v]) => (
            <div key={key}>
              <dt>{key}</dt>
              <dd>{v}</dd>
            </div>
          ))}
      </dl>
    </div>
  );
}
