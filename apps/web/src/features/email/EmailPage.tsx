import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ApiError, type Assistant, canManage, type Data, del, get } from '../../api.ts';
import { useWorkspaces } from '../../session.ts';
import { formatDateTime } from '../../shell/dates.ts';
import { ErrorText, Loading } from '../../shell/ui.tsx';
import { AssistantNav } from '../assistants/AssistantNav.tsx';
import { ConfirmButton } from '../members/ConfirmButton.tsx';
import { hasChannels } from '../sms/types.ts';
import { EmailForm } from './EmailForm.tsx';
import { Forwarding } from './Forwarding.tsx';
import { type EmailConfig, emailPath } from './types.ts';
import './email.css';

/** The configuration, or null when the assistant has none yet (the API's 404). */
async function loadConfig(id: string): Promise<EmailConfig | null> {
  try {
    return (await get<Data<EmailConfig>>(emailPath(id))).data;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404 && err.code.startsWith('not_found')) return null;
    throw err;
  }
}

/**
 * The email channel of an assistant (docs/email.md "Dashboard"): the address, how mail comes in
 * (forwarding or IMAP) and goes out (SMTP), the options, a test, the status and the forwarding
 * URL. Owners and admins only, on a plan with channels, as the API allows; anyone else is told
 * why instead of being sent requests that can only be refused.
 */
export function EmailPage() {
  const { t } = useTranslation('email');
  const { ws = '', id = '' } = useParams();
  const qc = useQueryClient();
  const workspaces = useWorkspaces();
  const workspace = workspaces.data?.data.find((w) => w.id === ws);
  const manager = canManage(workspace?.role);
  const channels = hasChannels(workspace?.plan);
  const assistant = useQuery({
    queryKey: ['assistant', id],
    queryFn: () => get<Data<Assistant>>(`/api/assistants/${id}`),
  });
  const config = useQuery({
    queryKey: ['email', id],
    queryFn: () => loadConfig(id),
    enabled: Boolean(workspace) && manager && channels,
  });
  const remove = useMutation({
    mutationFn: () => del(emailPath(id)),
    onSuccess: () => qc.setQueryData(['email', id], null),
  });
  const name = assistant.data?.data.name;
  const header = (
    <>
      <h1>{name ? t('titleFor', { name }) : t('title')}</h1>
      <AssistantNav ws={ws} id={id} />
    </>
  );
  if (workspaces.isPending) return <Loading />;
  if (!manager) {
    return (
      <section>
        {header}
        <p>{t('membersOnly')}</p>
      </section>
    );
  }
  if (!channels) {
    const plan = workspace?.plan === 'free' ? 'Free' : (workspace?.plan ?? '');
    return (
      <section>
        {header}
        <div className="card stack email-upgrade">
          <h2>{t('upgrade.title')}</h2>
          <p>{t('upgrade.text', { plan })}</p>
          <p>
            <Link to={`/w/${ws}/billing`}>
              {workspace?.role === 'owner' ? t('upgrade.owner') : t('upgrade.other')}
            </Link>
          </p>
        </div>
      </section>
    );
  }
  if (config.isPending) return <Loading />;
  if (config.error) {
    return (
      <section>
        {header}
        <ErrorText error={config.error} />
      </section>
    );
  }
  const saved = config.data;
  const status = saved?.status;
  return (
    <section>
      {header}
      <ErrorText error={assistant.error} />
      <p className="muted email-intro">{t('intro')}</p>
      {saved && status && (
        <section className="card stack email-card email-status" aria-labelledby="email-status-title">
          <h2 id="email-status-title">{t('status.title')}</h2>
          {status.checkedAt ? (
            <>
              <p className={status.state === 'ok' ? 'email-ok' : 'warn'}>
                {t(status.state === 'ok' ? 'status.ok' : 'status.error', { message: status.message })}
              </p>
              <p className="muted">{t('status.checked', { date: formatDateTime(status.checkedAt) })}</p>
            </>
          ) : (
            <p className="muted">{t('status.none')}</p>
          )}
        </section>
      )}
      {/* A first save or a deletion starts the form afresh; later saves keep it (and its "Saved"). */}
      <EmailForm key={`${id}-${saved ? 'saved' : 'new'}`} id={id} saved={saved} />
      {saved?.inbound.mode === 'forward' && (
        <Forwarding id={id} config={saved} url={saved.inbound.forwardUrl} />
      )}
      {saved && (
        <div className="row email-card email-danger">
          <ConfirmButton
            label={t('remove.button')}
            question={t('remove.question')}
            confirmLabel={t('remove.confirm')}
            pending={remove.isPending}
            onConfirm={() => remove.mutate()}
          />
          <ErrorText error={remove.error} />
        </div>
      )}
    </section>
  );
}
