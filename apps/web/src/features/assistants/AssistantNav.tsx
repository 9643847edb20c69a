import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation('assistants');
  const email = useTranslation('email').t;
  const role = useWorkspaces().data?.data.find((w) => w.id === ws)?.role;
  const at = `/w/${ws}/assistants/${id}`;
  return (
    <nav aria-label={t('nav.label')} className="subnav">
      {canManage(role) && (
        <NavLink to={at} end>
          {t('nav.settings')}
        </NavLink>
      )}
      <NavLink to={`${at}/knowledge`}>{t('nav.knowledge')}</NavLink>
      <NavLink to={`${at}/chat`}>{t('nav.chat')}</NavLink>
      <NavLink to={`${at}/guidance`}>{t('nav.guidance')}</NavLink>
      <NavLink to={`${at}/answers`}>{t('nav.answers')}</NavLink>
      <NavLink to={`${at}/tests`}>{t('nav.tests')}</NavLink>
      <NavLink to={`${at}/suggestions`}>{t('nav.suggestions')}</NavLink>
      {canManage(role) && <NavLink to={`${at}/widget`}>{t('nav.widget')}</NavLink>}
      {canManage(role) && <NavLink to={`${at}/sms`}>{t('nav.sms')}</NavLink>}
      {canManage(role) && <NavLink to={`${at}/email`}>{email('title')}</NavLink>}
    </nav>
  );
}
