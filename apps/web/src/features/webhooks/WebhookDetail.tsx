import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { api, canManage, type Data, get, patch } from '../../api.ts';
import { useWorkspaces } from '../../session.ts';
import { ManagersOnlyPage } from '../../shell/ManagersOnlyPage.tsx';
import { ErrorText } from '../../shell/ui.tsx';
import { Deliveries } from './Deliveries.tsx';
import { EventPicker } from './EventPicker.tsx';
import { describeEvents, hooksPath, type Webhook, when } from './types.ts';
import './webhooks.css';

/** One webhook (docs/webhooks.md): edit, turn on or off, delete, and its delivery log. */
export function WebhookDetail() {
  const { t } = useTranslation('webhooks');
  const { ws = '', id = '' } = useParams();
  const role = useWorkspaces().data?.data.find((w) => w.id === ws)?.role;
  const manager = !role || canManage(role);
  const hook = useQuery({
    queryKey: ['webhook', ws, id],
    queryFn: () => get<Data<Webhook>>(`${hooksPath(ws)}/${id}`),
    enabled: manager,
  });
  return (
    <ManagersOnlyPage
      manager={manager}
      header={<h1>{t('detail.title')}</h1>}
      notAllowed={t('managersOnly')}
      query={hook}
    >
      {({ data: h }) => (
        <section>
          <h1 className="wh-url">{h.url}</h1>
          <p>
            <span className={`badge ${h.active ? 'ready' : 'failed'}`}>
              {h.active ? t('active') : t('inactive')}
            </span>{' '}
            <span className="muted">
              {t('detail.meta', { events: describeEvents(h.events), date: when(h.createdAt) })}
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
      )}
    </ManagersOnlyPage>
  );
}

/** Why an inactive webhook receives nothing, and the one-click way back (docs/webhooks.md). */
function Inactive({ ws, hook }: { ws: string; hook: Webhook }) {
  const { t } = useTranslation('webhooks');
  const save = useSave(ws, hook.id);
  return (
    <div className="warn stack wh-inactive">
      <p>
        <Trans t={t} i18nKey="detail.inactive" components={{ strong: <strong /> }} />
      </p>
      <ErrorText error={save.error} />
      <div>
        <button type="button" onClick={() => save.mutate({ active: true })} disabled={save.isPending}>
          {t('detail.turnOn')}
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
  const { t } = useTranslation('webhooks');
  const save = useSave(ws, hook.id);
  const [events, setEvents] = useState(hook.events);
  const [problem, setProblem] = useState<string | null>(null);
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    if (events.length === 0) {
      setProblem(t('form.chooseEvents'));
      return;
    }
    setProblem(null);
    save.mutate({ url: String(f.get('url') ?? '').trim(), events, active: f.get('active') === 'on' });
  };
  return (
    <form onSubmit={onSubmit} className="card stack" aria-labelledby="edit-title">
      <h2 id="edit-title">{t('detail.settings')}</h2>
      <label>
        {t('form.url')}
        <input name="url" type="url" required maxLength={2048} defaultValue={hook.url} />
      </label>
      <EventPicker value={events} onChange={setEvents} />
      <label className="check">
        <input type="checkbox" name="active" defaultChecked={hook.active} />
        {t('detail.active')}
      </label>
      <ErrorText error={problem ?? save.error} />
      <div className="row">
        <button type="submit" className="primary" disabled={save.isPending}>
          {t('detail.save')}
        </button>
        {save.isSuccess && (
          <span role="status" className="muted">
            {t('detail.saved')}
          </span>
        )}
      </div>
    </form>
  );
}

function DeleteWebhook({ ws, hook }: { ws: string; hook: Webhook }) {
  const { t } = useTranslation('webhooks');
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
      <h2 id="delete-title">{t('detail.deleteTitle')}</h2>
      {!asking ? (
        <div>
          <button type="button" onClick={() => setAsking(true)}>
            {t('detail.delete')}
          </button>
        </div>
      ) : (
        <>
          <p>
            <Trans
              t={t}
              i18nKey="detail.deleteQuestion"
              values={{ url: hook.url }}
              components={{ url: <span className="wh-url" /> }}
            />
          </p>
          <ErrorText error={remove.error} />
          <div className="row">
            <button
              type="button"
              className="wh-danger"
              onClick={() => remove.mutate()}
              disabled={remove.isPending}
            >
              {t('detail.deleteYes')}
            </button>
            <button type="button" onClick={() => setAsking(false)}>
              {t('detail.cancel')}
            </button>
          </div>
        </>
      )}
    </section>
  );
}
