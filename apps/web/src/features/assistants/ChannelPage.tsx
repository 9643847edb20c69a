import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { type Assistant, canManage, type Data, get } from '../../api.ts';
import { useWorkspaces } from '../../session.ts';
import { ManagersOnlyPage } from '../../shell/ManagersOnlyPage.tsx';
import { Loading } from '../../shell/ui.tsx';
import { hasChannels } from '../sms/types.ts';
import { AssistantNav } from './AssistantNav.tsx';

/**
 * A channel's settings page (email, SMS) up to its form: the assistant's heading and navigation,
 * and instead of the form the words for a member (owners and admins only), the upgrade card on a
 * plan without channels, or the channel's configuration loading or failing, as the API allows.
 * `load`: the channel's configuration (null when it has none yet), read only when it may be.
 */
export function ChannelPage<C>(props: {
  /** The channel's namespace: its title, `membersOnly` and `upgrade` words. */
  namespace: 'email' | 'sms';
  queryKey: string;
  load(ws: string, id: string): Promise<C | null>;
  children(page: {
    ws: string;
    id: string;
    header: ReactNode;
    assistant: UseQueryResult<Data<Assistant>>;
    saved: C | null;
  }): ReactNode;
}) {
  const { namespace } = props;
  const { t } = useTranslation([namespace, 'billing']);
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
    queryKey: [props.queryKey, id],
    queryFn: () => props.load(ws, id),
    enabled: Boolean(workspace) && manager && channels,
  });
  const name = assistant.data?.data.name;
  const header = (
    <>
      <h1>{name ? t(`${namespace}:titleFor`, { name }) : t(`${namespace}:title`)}</h1>
      <AssistantNav ws={ws} id={id} />
    </>
  );
  if (workspaces.isPending) return <Loading />;
  if (manager && !channels) {
    const plan = workspace?.plan ? t(`billing:plans.${workspace.plan}.name`) : '';
    return (
      <section>
        {header}
        <div className={`card stack ${namespace}-upgrade`}>
          <h2>{t(`${namespace}:upgrade.title`)}</h2>
          <p>{t(`${namespace}:upgrade.text`, { plan })}</p>
          <p>
            <Link to={`/w/${ws}/billing`}>
              {workspace?.role === 'owner'
                ? t(`${namespace}:upgrade.owner`)
                : t(`${namespace}:upgrade.other`)}
            </Link>
          </p>
        </div>
      </section>
    );
  }
  return (
    <ManagersOnlyPage
      manager={manager}
      header={header}
      notAllowed={t(`${namespace}:membersOnly`)}
      query={config}
    >
      {(saved) => props.children({ ws, id, header, assistant, saved })}
    </ManagersOnlyPage>
  );
}
