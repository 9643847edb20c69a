import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams } from 'react-router';
import { canManage } from '../../api.ts';
import { useWorkspaces } from '../../session.ts';
import { ErrorText, Loading } from '../../shell/ui.tsx';
import { inTrial, planLabel } from '../billing/plans.ts';
import { CreditsCard } from '../credits/CreditsCard.tsx';

/** `/`: the first workspace, or the create-workspace page when there is none yet. */
export function Home() {
  const workspaces = useWorkspaces();
  if (workspaces.isPending) return <Loading />;
  if (workspaces.error) return <ErrorText error={workspaces.error} />;
  const first = workspaces.data.data[0];
  return <Navigate to={first ? `/w/${first.id}` : '/workspaces/new'} replace />;
}

/** Workspace overview: credits this period and where to go next. */
export function Overview() {
  const { t } = useTranslation(['workspaces', 'shell']);
  const { ws = '' } = useParams();
  const workspace = useWorkspaces().data?.data.find((w) => w.id === ws);
  return (
    <section>
      <h1>{workspace?.name ?? t('overview.workspace')}</h1>
      {workspace && (
        <p className="muted">
          {t('overview.planRole', {
            plan: planLabel(workspace.plan, inTrial(workspace)),
            role: t(`shell:roles.${workspace.role}`),
          })}
        </p>
      )}
      <div className="grid">
        <CreditsCard ws={ws} />
        <div className="card">
          <h2>{t('overview.assistants')}</h2>
          <p>{t('overview.assistantsIntro')}</p>
          <p>
            <Link to={`/w/${ws}/assistants`}>{t('overview.seeAssistants')}</Link>
            {canManage(workspace?.role) && (
              <>
                {' · '}
                <Link to={`/w/${ws}/assistants/new`}>{t('overview.createAssistant')}</Link>
              </>
            )}
          </p>
        </div>
      </div>
    </section>
  );
}
