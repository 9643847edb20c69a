import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { type Assistant, canManage, type Data, get } from '../../api.ts';
import { useWorkspaces } from '../../session.ts';
import { ErrorText } from '../../shell/ui.tsx';
import { AssistantNav } from '../assistants/AssistantNav.tsx';
import './steering.css';

/** Whether the signed-in user may change this workspace's assistants (owners and admins). */
export function useManager(ws: string) {
  const workspaces = useWorkspaces();
  return { manager: canManage(workspaces.data?.data.find((w) => w.id === ws)?.role), workspaces };
}

/** A steering page's heading ("Guidance for Kettle helper") and the assistant's pages beside it. */
export function SteeringHeader(props: { ws: string; id: string; title: string; children?: ReactNode }) {
  const assistant = useQuery({
    queryKey: ['assistant', props.id],
    queryFn: () => get<Data<Assistant>>(`/api/assistants/${props.id}`),
  });
  const { t } = useTranslation('steering');
  const name = assistant.data?.data.name;
  return (
    <>
      <h1>{name ? t('header', { title: props.title, name }) : props.title}</h1>
      <AssistantNav ws={props.ws} id={props.id} />
      <ErrorText error={assistant.error} />
      {props.children && <p className="muted st-intro">{props.children}</p>}
    </>
  );
}
