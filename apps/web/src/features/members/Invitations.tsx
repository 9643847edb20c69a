import type { InvitationInput } from '@parley/contract/api-types';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { ApiError, api, type Data, get, type OffsetPage, post } from '../../api.ts';
import { i18n } from '../../i18n/index.ts';
import { SecretField } from '../../shell/SecretField.tsx';
import { Empty, ErrorText, Loading, Pager } from '../../shell/ui.tsx';
import { type AssignableRole, type CreatedInvitation, formatDate, type Invitation, ROLES } from './types.ts';

const LIMIT = 10;

type InviteInput = InvitationInput;

/** The two 409s of docs/workspaces.md "Invitations", said with the address in question. */
function inviteError(err: unknown, input: InviteInput | undefined): unknown {
  if (!(err instanceof ApiError) || err.status !== 409 || !input) return err;
  if (err.details?.email === 'Already a member')
    return i18n.t('members:invite.alreadyMember', { email: input.email });
  if (err.details?.email === 'Invitation pending') {
    return i18n.t('members:invite.pending', { email: input.email });
  }
  return err;
}

/** Invite by email and role; the link is shown once here (Parley keeps only its hash). */
export function InviteForm({ ws }: { ws: string }) {
  const { t } = useTranslation(['members', 'shell']);
  const qc = useQueryClient();
  const invite = useMutation({
    mutationFn: (body: InviteInput) =>
      post<Data<CreatedInvitation>>(`/api/workspaces/${ws}/invitations`, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['invitations', ws] }),
  });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const body = { email: String(f.get('email') ?? '').trim(), role: f.get('role') as AssignableRole };
    invite.mutate(body, { onSuccess: () => form.reset() });
  };
  const created = invite.data?.data;
  return (
    <div className="card stack">
      <form onSubmit={onSubmit} className="stack" aria-labelledby="invite-title">
        <h2 id="invite-title">{t('invite.title')}</h2>
        <label>
          {t('invite.email')}
          <input name="email" type="email" required maxLength={254} autoComplete="off" />
        </label>
        <label>
          {t('invite.role')}
          <select name="role" defaultValue="member">
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {t('roleOption', { label: t(`roles.${r}.label`), what: t(`roles.${r}.what`) })}
              </option>
            ))}
          </select>
        </label>
        <ErrorText error={inviteError(invite.error, invite.variables)} />
        <div>
          <button type="submit" className="primary" disabled={invite.isPending}>
            {t('invite.send')}
          </button>
        </div>
      </form>
      {created && (
        <div className="stack invite-link" role="status">
          <p>
            <Trans
              t={t}
              i18nKey="invite.sent"
              values={{
                email: created.email,
                role: t(`shell:roles.${created.role}`),
                date: formatDate(created.expiresAt),
              }}
              components={{ strong: <strong /> }}
            />
          </p>
          <SecretField label={t('invite.link')} value={created.inviteUrl} copyLabel={t('invite.copy')} />
        </div>
      )}
    </div>
  );
}

/** Pending invitations (newest first, no links: those exist only in the email and the answer). */
export function Invitations({ ws }: { ws: string }) {
  const { t } = useTranslation('members');
  const [offset, setOffset] = useState(0);
  const list = useQuery({
    queryKey: ['invitations', ws, offset],
    queryFn: () =>
      get<OffsetPage<Invitation>>(`/api/workspaces/${ws}/invitations?limit=${LIMIT}&offset=${offset}`),
    placeholderData: keepPreviousData,
  });
  const total = list.data?.total ?? 0;
  // Revoking the last one of a later page would leave an empty page: step back.
  const past = Boolean(list.data) && offset > 0 && offset >= total;
  useEffect(() => {
    if (past) setOffset((o) => Math.max(0, o - LIMIT));
  }, [past]);
  return (
    <div className="card stack">
      <h2>{t('pending.title')}</h2>
      {list.isPending && <Loading />}
      <ErrorText error={list.error} />
      {list.data && total === 0 && (
        <Empty title={t('pending.none')}>
          <p>{t('pending.noneText')}</p>
        </Empty>
      )}
      {list.data && list.data.data.length > 0 && (
        <ul className="people" aria-label={t('pending.title')}>
          {list.data.data.map((inv) => (
            <InvitationRow key={inv.id} ws={ws} invitation={inv} />
          ))}
        </ul>
      )}
      {list.data && <Pager page={list.data} onChange={setOffset} />}
    </div>
  );
}

function InvitationRow({ ws, invitation }: { ws: string; invitation: Invitation }) {
  const { t } = useTranslation(['members', 'shell']);
  const qc = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => api<void>('DELETE', `/api/workspaces/${ws}/invitations/${invitation.id}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['invitations', ws] }),
  });
  return (
    <li className="person">
      <div className="who">
        <p>
          <strong>{invitation.email}</strong>{' '}
          <span className="badge">{t(`shell:roles.${invitation.role}`)}</span>
        </p>
        <p className="muted">{t('pending.expires', { date: formatDate(invitation.expiresAt) })}</p>
      </div>
      <button
        type="button"
        className="danger"
        aria-label={t('pending.revokeOf', { email: invitation.email })}
        disabled={revoke.isPending}
        onClick={() => revoke.mutate()}
      >
        {t('pending.revoke')}
      </button>
      <ErrorText error={revoke.error} />
    </li>
  );
}
