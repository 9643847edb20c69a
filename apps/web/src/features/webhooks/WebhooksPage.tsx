import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { canManage, type Data, get, type OffsetPage, post } from '../../api.ts';
import { useWorkspaces } from '../../session.ts';
import { CopyButton } from '../../shell/CopyButton.tsx';
import { Empty, ErrorText, Loading, Pager } from '../../shell/ui.tsx';
import { EventPicker } from './EventPicker.tsx';
import { type CreatedWebhook, describeEvents, hooksPath, type Webhook, when } from './types.ts';
import './webhooks.css';

const LIMIT = 20;

/** Format A webhooks of the workspace (docs/webhooks.md): list, create, the secret once. */
export function WebhooksPage() {
  const { t } = useTranslation('webhooks');
  const { ws = '' } = useParams();
  const role = useWorkspaces().data?.data.find((w) => w.id === ws)?.role;
  if (role && !canManage(role)) {
    return (
      <section>
        <h1>{t('title')}</h1>
        <p>{t('managersOnly')}</p>
      </section>
    );
  }
  return <Webhooks ws={ws} />;
}

function Webhooks({ ws }: { ws: string }) {
  const { t } = useTranslation('webhooks');
  const [offset, setOffset] = useState(0);
  // The creation answer, kept only in this component's state: the secret is never cached and is
  // gone once the page is left (the API never returns it again).
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const list = useQuery({
    queryKey: ['webhooks', ws, offset],
    queryFn: () => get<OffsetPage<Webhook>>(`${hooksPath(ws)}?limit=${LIMIT}&offset=${offset}`),
    placeholderData: keepPreviousData,
  });
  return (
    <section>
      <h1>{t('title')}</h1>
      <p className="muted wh-lede">{t('lede')}</p>
      {created && <SecretOnce ws={ws} hook={created} onDone={() => setCreated(null)} />}
      <div className="grid">
        <div>
          <h2>{t('yours')}</h2>
          {list.isPending && <Loading />}
          <ErrorText error={list.error} />
          {list.data?.total === 0 && (
            <Empty title={t('none')}>
              <p>{t('noneText')}</p>
            </Empty>
          )}
          {list.data && list.data.data.length > 0 && (
            <ul className="list" aria-label={t('list')}>
              {list.data.data.map((h) => (
                <li key={h.id} className="card wh-item">
                  <p className="wh-url">
                    <Link to={`/w/${ws}/webhooks/${h.id}`}>{h.url}</Link>
                  </p>
                  <p>
                    <span className={`badge ${h.active ? 'ready' : 'failed'}`}>
                      {h.active ? t('active') : t('inactive')}
                    </span>{' '}
                    <span className="muted">{describeEvents(h.events)}</span>
                  </p>
                  {!h.active && <p className="muted">{t('inactiveHint')}</p>}
                  <p className="muted">{t('created', { date: when(h.createdAt) })}</p>
                </li>
              ))}
            </ul>
          )}
          {list.data && <Pager page={list.data} onChange={setOffset} />}
        </div>
        <CreateWebhook ws={ws} onCreated={setCreated} />
      </div>
    </section>
  );
}

/** The signing secret of a webhook just created: shown this once (docs/webhooks.md). */
function SecretOnce({ ws, hook, onDone }: { ws: string; hook: CreatedWebhook; onDone(): void }) {
  const { t } = useTranslation('webhooks');
  return (
    <section className="card stack wh-secret" aria-labelledby="secret-title">
      <h2 id="secret-title">{t('secret.title')}</h2>
      <p>
        <Trans
          t={t}
          i18nKey="secret.text"
          values={{ url: hook.url }}
          components={{ strong: <strong className="wh-url" />, code: <code /> }}
        />
      </p>
      <p className="wh-code">
        <span className="sr-only">{t('secret.label')}</span>
        <code className="wh-secret-value">{hook.secret}</code>
      </p>
      <div className="row">
        <CopyButton text={hook.secret} label={t('secret.copy')} />
        <span className="links">
          <Link to={`/w/${ws}/webhooks/${hook.id}`}>{t('secret.open')}</Link>
          <button type="button" onClick={onDone}>
            {t('secret.done')}
          </button>
        </span>
      </div>
    </section>
  );
}

function CreateWebhook({ ws, onCreated }: { ws: string; onCreated(hook: CreatedWebhook): void }) {
  const { t } = useTranslation('webhooks');
  const qc = useQueryClient();
  const [events, setEvents] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (body: Record<string, unknown>) => post<Data<CreatedWebhook>>(hooksPath(ws), body),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['webhooks', ws] }),
  });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    if (events.length === 0) {
      setProblem(t('form.chooseEvents'));
      return;
    }
    setProblem(null);
    const secret = String(f.get('secret') ?? '').trim();
    create.mutate(
      { url: String(f.get('url') ?? '').trim(), events, ...(secret && { secret }) },
      {
        onSuccess: (res) => {
          form.reset();
          setEvents([]);
          onCreated(res.data);
        },
      },
    );
  };
  return (
    <form onSubmit={onSubmit} className="card stack" aria-labelledby="new-webhook-title">
      <h2 id="new-webhook-title">{t('form.title')}</h2>
      <label>
        {t('form.url')}
        <input
          name="url"
          type="url"
          required
          maxLength={2048}
          placeholder="https://hooks.example.com/parley"
          aria-describedby="url-hint"
        />
      </label>
      <p id="url-hint" className="muted wh-hint">
        {t('form.urlHint')}
      </p>
      <EventPicker value={events} onChange={setEvents} />
      <details>
        <summary>{t('form.advanced')}</summary>
        <label>
          {t('form.secret')}
          <input
            name="secret"
            minLength={16}
            maxLength={256}
            autoComplete="off"
            aria-describedby="secret-hint"
          />
        </label>
        <p id="secret-hint" className="muted wh-hint">
          {t('form.secretHint')}
        </p>
      </details>
      <ErrorText error={problem ?? create.error} />
      <div>
        <button type="submit" className="primary" disabled={create.isPending}>
          {t('form.add')}
        </button>
      </div>
    </form>
  );
}
