import { NavLink } from 'react-router';
import { canManage } from '../../api.ts';
import { useWorkspaces } from '../../session.ts';

/**
 * The pages of one assistant, side by side (the breadcrumbs above lead up, these lead across):
 * settings, the widget and SMS for owners and admins, knowledge, chat and the steering pages
 * (guidance, curated answers, tests; docs/steering.md) and the suggestions (docs/measuring.md) for
 * everyone.
 */
export function AssistantNav({ ws, id }: { ws: string; id: string }) {
  const role = useWorkspaces().data?.data.find((w) => w.id === ws)?.role;
  const at = `/w/${ws}/assistants/${id}`;
  return (
    <nav aria-label="Assistant" className="subnav">
      {canManage(role) && (
        <NavLink to={at} end>
          Settings
        </NavLink>
      )}
      <NavLink to={`${at}/knowledge`}>Knowledge</NavLink>
      <NavLink to={`${at}/chat`}>Chat</NavLink>
      <NavLink to={`${at}/guidance`}>Guidance</NavLink>
      <NavLink to={`${at}/answers`}>Curated answers</NavLink>
      <NavLink to={`${at}/tests`}>Tests</NavLink>
      <NavLink to={`${at}/suggestions`}>Suggestions</NavLink>
      {canManage(role) && <NavLink to={`${at}/widget`}>Website widget</NavLink>}
      {canManage(role) && <NavLink to={`${at}/sms`}>SMS</NavLink>}
    </nav>
  );
}
