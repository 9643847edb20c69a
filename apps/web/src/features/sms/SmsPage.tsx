import { useQuery } from '@tanstack/react-query';
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
      <h1>SMS{name ? ` for ${name}` : ''}</h1>
      <AssistantNav ws={ws} id={id} />
    </>
  );
  if (workspaces.isPending) return <Loading />;
  if (!manager) {
    return (
      <section>
        {header}
        <p>
          Only owners and admins of this workspace can see and change the SMS channel: it holds the provider
          account’s credentials. SMS conversations appear in the inbox for everyone.
        </p>
      </section>
    );
  }
  if (!channels) {
    return (
      <section>
        {header}
        <div className="card stack sms-upgrade">
          <h2>SMS needs the Pro or Enterprise plan</h2>
          <p>
            This workspace is on the {workspace?.plan === 'free' ? 'Free' : workspace?.plan} plan, which does
            not include channels. To answer text messages with this assistant, the workspace’s owner upgrades
            it to Pro: the upgrade takes effect at once, and this page then lets you connect your SMS provider
            account and number.
          </p>
          <p>
            <Link to={`/w/${ws}/billing`}>
              {workspace?.role === 'owner'
                ? 'Upgrade on the Billing page'
                : 'See the plans on the Billing page'}
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
      <p className="muted sms-intro">
        Customers text your number; the assistant answers by SMS through your own provider account (bring your
        own account: messages are billed by the provider to you, and each AI reply uses one credit here).
      </p>
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
