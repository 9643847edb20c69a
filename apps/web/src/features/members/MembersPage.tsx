import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { api, canManage, type Data, get, type OffsetPage, patch, type Role } from '../../api.ts';
import { useSession, useWorkspaces } from '../../session.ts';
import { Empty, ErrorText, Loading, Pager } from '../../shell/ui.tsx';
import { ConfirmButton } from './ConfirmButton.tsx';
import { Invitations, InviteForm } from './Invitations.tsx';
import { type AssignableRole, formatDate, type Member, ROLES } from './types.ts';
import './team.css';

const LIMIT = 20;

/**
 * The workspace's members (docs/workspaces.md "Members"): everyone sees the list; owners and
 * admins change roles, remove people and invite (docs/workspaces.md). Anyone but the owner may leave.
 */
export function MembersPage() {
  const { t } = useTranslation('members');
  const { ws = '' } = useParams();
  const workspace = useWorkspaces().data?.data.find((w) => w.id === ws);
  const me = useSession().data;
  const manage = canManage(workspace?.role);
  const [offset, setOffset] = useState(0);
  const list = useQuery({
    queryKey: ['members', ws, offset],
    queryFn: () => get<OffsetPage<Member>>(`/api/workspaces/${ws}/members?limit=${LIMIT}&offset=${offset}`),
    placeholderData: keepPreviousData,
  });
  // Removing the last person of a later page would leave an empty page: step back.
  const past = Boolean(list.data) && offset > 0 && offset >= (list.data?.total ?? 0);
  useEffect(() => {
    if (past) setOffset((o) => Math.max(0, o - LIMIT));
  }, [past]);
  return (
    <section>
      <h1>{t('title')}</h1>
      <p className="muted">{manage ? t('introManage') : t('introRead')}</p>
      <div className="grid">
        <div>
          <h2>{list.data ? t('peopleCount', { count: list.data.total }) : t('people')}</h2>
          {list.isPending && <Loading />}
          <ErrorText error={list.error} />
          {list.data && list.data.data.length > 0 && (
            <ul className="people" aria-label={t('list')}>
              {list.data.data.map((m) => (
                <MemberRow key={m.userId} ws={ws} member={m} manage={manage} isMe={m.userId === me?.id} />
              ))}
            </ul>
          )}
          {list.data && list.data.total === 0 && (
            <Empty title={t('nobody')}>
              <p>{t('nobodyText')}</p>
            </Empty>
          )}
          {list.data && <Pager page={list.data} onChange={setOffset} />}
          {workspace && workspace.role !== 'owner' && <LeaveWorkspace ws={ws} name={workspace.name} />}
        </div>
        {manage && (
          <div className="stack">
            <InviteForm ws={ws} />
            <Invitations ws={ws} />
          </div>
        )}
      </div>
    </section>
  );
}

function MemberRow(props: { ws: string; member: Member; manage: boolean; isMe: boolean }) {
  const { ws, member, manage, isMe } = props;
  const { t } = useTranslation(['members', 'shell']);
  const qc = useQueryClient();
  const [saved, setSaved] = useState('');
  const refresh = async () => {
    await qc.invalidateQueries({ queryKey: ['members', ws] });
    // Demoting yourself changes what this dashboard offers you.
    if (isMe) await qc.invalidateQueries({ queryKey: ['workspaces'] });
  };
  const change = useMutation({
    mutationFn: (role: AssignableRole) =>
      patch<Data<Member>>(`/api/workspaces/${ws}/members/${member.userId}`, { role }),
    onMutate: () => setSaved(''),
    onSuccess: async (res) => {
      await refresh();
      setSaved(t('nowRole', { name: res.data.name, role: t(`shell:roles.${res.data.role}`) }));
    },
  });
  const remove = useMutation({
    mutationFn: () => api<void>('DELETE', `/api/workspaces/${ws}/members/${member.userId}`),
    onSuccess: refresh,
  });
  // Nobody changes the owner here: ownership moves only by transfer (docs/workspaces.md).
  const editable = manage && member.role !== 'owner';
  const shownRole: Role = change.isPending && change.variables ? change.variables : member.role;
  return (
    <li className="card person">
      <div className="who">
        <p>
          <strong>{member.name}</strong>
          {isMe && <span className="muted">{t('you')}</span>}
        </p>
        <p className="muted">{member.email}</p>
        <p className="muted">{t('joined', { date: formatDate(member.joinedAt) })}</p>
      </div>
      <div className="actions">
        {editable ? (
          <label>
            <span className="sr-only">{t('roleOf', { name: member.name })}</span>
            <select
              className="role-select"
              value={shownRole}
              disabled={change.isPending}
              onChange={(e) => change.mutate(e.target.value as AssignableRole)}
            >
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {t(`roles.${r}.label`)}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <span className="badge">{t(`shell:roles.${member.role}`)}</span>
        )}
        {editable && !isMe && (
          <ConfirmButton
            label={t('remove')}
            ariaLabel={t('removeName', { name: member.name })}
            question={t('removeQuestion', { name: member.name })}
            confirmLabel={t('remove')}
            pending={remove.isPending}
            onConfirm={() => remove.mutate()}
          />
        )}
      </div>
      <p role="status" className="muted full">
        {saved}
      </p>
      <ErrorText error={change.error ?? remove.error} />
    </li>
  );
}

/** Anyone but the owner may leave (DELETE of one's own membership); the owner transfers first. */
function LeaveWorkspace({ ws, name }: { ws: string; name: string }) {
  const { t } = useTranslation('members');
  const qc = useQueryClient();
  const navigate = useNavigate();
  const me = useSession().data;
  const leave = useMutation({
    mutationFn: () => api<void>('DELETE', `/api/workspaces/${ws}/members/${me?.id}`),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['workspaces'] });
      qc.removeQueries({ queryKey: ['members', ws] });
      navigate('/');
    },
  });
  return (
    <div className="card stack section-gap">
      <h2>{t('leave.title')}</h2>
      <p>{t('leave.text', { name })}</p>
      <div>
        <ConfirmButton
          label={t('leave.button')}
          question={t('leave.question', { name })}
          confirmLabel={t('leave.confirm')}
          pending={leave.isPending}
          onConfirm={() => leave.mutate()}
        />
      </div>
      <ErrorText error={leave.error} />
    </div>
  );
}
