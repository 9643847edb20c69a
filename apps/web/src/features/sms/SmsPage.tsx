import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { type Assistant, canManage, type Data, get } from '../../api.ts';
import { useWorkspaces } from '../../session.ts';
import { ErrorText, Loading } from '../../shell/ui.tsx';
import { AssistantNav } from '../assistants/AssistantNav.tsx';
import { SmsAnalyticsCard } from './SmsAnalytics.tsx';
import { SmsForm } from './SmsForm.tsx';
import { SmsSessions } from './SmsSessions.tsx';
import { loadConfig } from './save.ts';
import { hasChannels } from './types.ts';
import './sms.css';

/**
 * The SMS channel of an assistant (docs/dashboard.md "SMS"): the provider account and number,
 * the options, a test against the provider, the webhook URL to paste there, the sessions and the
 * message volume. Owners and admins only, on a plan with channels, as the API allows; anyone
 * else is told why instead of being sent requests that can only be refused.
 */
export function SmsPage() {
  const { t } = useTranslation(['sms', 'billing']);
  const { ws = '', id = '' } = useParams();
  const workspaces = useWorkspaces();
  const workspace = workspaces.data?.data.find((w) => w.id === ws);
  const manager = canManage(workspace?.role);
  const channels = hasChannels(workspace?.plan);
  const assistant = useQuery({
    queryKey: ['assistant', id],
    queryFn: () => get<Data<Assistant>>(`/api/assistants/${id}`),
  });
  const config = useQuery({
    queryKey: ['sms', id],
    queryFn: () => loadConfig(ws, id),
    enabled: Boolean(workspace) && manager && channels,
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
    const plan = workspace?.plan ? t(`billing:plans.${workspace.plan}.name`) : '';
    return (
      <section>
        {header}
        <div className="card stack sms-upgrade">
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
  return (
    <section>
      {header}
      <ErrorText error={assistant.error} />
      <p className="muted sms-intro">{t('intro')}</p>
      <SmsForm key={id} ws={ws} id={id} saved={saved} />
      {saved && (
        <div className="grid sms-below">
          <SmsSessions ws={ws} id={id} />
          <SmsAnalyticsCard ws={ws} id={id} />
        </div>
      )}
    </section>
  );
}
