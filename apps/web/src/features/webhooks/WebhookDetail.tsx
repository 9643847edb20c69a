import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api, canManage, type Data, get, patch } from '../../api.ts';
import { useWorkspaces } from '../../session.ts';
import { ErrorText, Loading } from '../../shell/ui.tsx';
import { Deliveries } from './Deliveries.tsx';
import { EventPicker } from './EventPicker.tsx';
import { describeEvents, hooksPath, type Webhook, when } from './types.ts';
import './webhooks.css';

/** One webhook (docs/webhooks.md): edit, turn on or off, delete, and its delivery log. */
export function WebhookDetail() {
  const { ws = '', id = '' } = useParams();
  const role = useWorkspaces().data?.data.find((w) => w.id === ws)?.role;
  const hook = useQuery({
    queryKey: ['webhook', ws, id],
    queryFn: () => get<Data<Webhook>>(`${hooksPath(ws)}/${id}`),
    enabled: !role || canManage(role),
  });
  if (role && !canManage(role)) {
    return (
      <section>
        <h1>Webhook</h1>
        <p>Only owners and admins of this workspace can see and manage its webhooks.</p>
      </section>
    );
  }
  if (hook.isPending) return <Loading />;
  if (hook.error) {
    return (
      <section>
        <h1>Webhook</h1>
        <ErrorText error={hook.error} />
      </section>
    );
  }
  const h = hook.data.data;
  return (
    <section>
      <h1 className="wh-url">{h.url}</h1>
      <p>
        <span className={`badge ${h.active ? 'ready' : 'failed'}`}>{h.active ? 'active' : 'inactive'}</span>{' '}
        <span className="muted">
          {describeEvents(h.events)} · created {when(h.createdAt)}
        </span>
      </p>
      {!h.active && <Inactive ws={ws} hook={h} />}
      <div className="grid">
        <Deliveries ws={ws} hook={h} />
        <div className="stack">
          <EditWebhook key={`${h.url} ${h.events.join()} ${h.active}`} ws={ws} hook={h} />
          <DeleteWebhook ws={ws} hook={h} />
        </div>
      </div>
    </section>
  );
}

/** Why an inactive webhook receives nothing, and the one-click way back (docs/webhooks.md). */
function Inactive({ ws, hook }: { ws: string; hook: Webhook }) {
  const save = useSave(ws, hook.id);
  return (
    <div className="warn stack wh-inactive">
      <p>
        <strong>This webhook is off and receives no new events.</strong> Someone may have turned it off, or
        Parley did so by itself after more than 50 failed attempts in a row within 7 days (owners and admins
        were then emailed). Check the failed deliveries below and fix your endpoint, then turn it back on:
        that also resets the failure count.
      </p>
      <ErrorText error={save.error} />
      <div>
        <button type="button" onClick={() => save.mutate({ active: true })} disabled={save.isPending}>
          Turn it back on
        </button>
      </div>
    </div>
  );
}

function useSave(ws: string, id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: Partial<Pick<Webhook, 'url' | 'events' | 'active'>>) =>
      patch<Data<Webhook>>(`${hooksPath(ws)}/${id}`, body),
    onSuccess: async (res) => {
      qc.setQueryData(['webhook', ws, id], res);
      await qc.invalidateQueries({ queryKey: ['webhooks', ws] });
      await qc.invalidateQueries({ queryKey: ['deliveries', ws, id] });
    },
  });
}

function EditWebhook({ ws, hook }: { ws: string; hook: Webhook }) {
  const save = useSave(ws, hook.id);
  const [events, setEvents] = useState(hook.events);
  const [problem, setProblem] = useState<string | null>(null);
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    if (events.length === 0) {
      setProblem('Choose at least one event, or "All events".');
      return;
    }
    setProblem(null);
    save.mutate({ url: String(f.get('url') ?? '').trim(), events, active: f.get('active') === 'on' });
  };
  return (
    <form onSubmit={onSubmit} className="card stack" aria-labelledby="edit-title">
      <h2 id="edit-title">Settings</h2>
      <label>
        Endpoint URL
        <input name="url" type="url" required maxLength={2048} defaultValue={hook.url} />
      </label>
      <EventPicker value={events} onChange={setEvents} />
      <label className="check">
        <input type="checkbox" name="active" defaultChecked={hook.active} />
        Active (deliver new events)
      </label>
      <ErrorText error={problem ?? save.error} />
      <div className="row">
        <button type="submit" className="primary" disabled={save.isPending}>
          Save changes
        </button>
        {save.isSuccess && (
          <span role="status" className="muted">
            Saved
          </span>
        )}
      </div>
    </form>
  );
}

function DeleteWebhook({ ws, hook }: { ws: string; hook: Webhook }) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  const remove = useMutation({
    mutationFn: () => api<void>('DELETE', `${hooksPath(ws)}/${hook.id}`),
    onSuccess: async () => {
      qc.removeQueries({ queryKey: ['webhook', ws, hook.id] });
      qc.removeQueries({ queryKey: ['deliveries', ws, hook.id] });
      await qc.invalidateQueries({ queryKey: ['webhooks', ws] });
      navigate(`/w/${ws}/webhooks`);
    },
  });
  return (
    <section className="card stack" aria-labelledby="delete-title">
      <h2 id="delete-title">Delete</h2>
      {!asking ? (
        <div>
          <button type="button" onClick={() => setAsking(true)}>
            Delete webhook
          </button>
        </div>
      ) : (
        <>
          <p>
            Delete this webhook? Parley stops sending to <span className="wh-url">{hook.url}</span> at once
            and its delivery log goes with it. This cannot be undone.
          </p>
          <ErrorText error={remove.error} />
          <div className="row">
            <button
              type="button"
              className="wh-danger"
              onClick={() => remove.mutate()}
              disabled={remove.isPending}
            >
              Yes, delete it
            </button>
            <button type="button" onClick={() => setAsking(false)}>
              Cancel
            </button>
          </div>
        </>
      )}
    </section>
  );
}
