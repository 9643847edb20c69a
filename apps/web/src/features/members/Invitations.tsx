import type { InvitationInput } from '@parley/contract/api-types';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { ApiError, api, type Data, get, type OffsetPage, post } from '../../api.ts';
import { SecretField } from '../../shell/SecretField.tsx';
import { Empty, ErrorText, Loading, Pager } from '../../shell/ui.tsx';
import { type AssignableRole, type CreatedInvitation, formatDate, type Invitation, ROLES } from './types.ts';

const LIMIT = 10;

type InviteInput = InvitationInput;

/** The two 409s of docs/workspaces.md "Invitations", said with the address in question. */
function inviteError(err: unknown, input: InviteInput | undefined): unknown {
  if (!(err instanceof ApiError) || err.status !== 409 || !input) return err;
  if (err.details?.email === 'Already a member')
    return `${input.email} is already a member of this workspace.`;
  if (err.details?.email === 'Invitation pending') {
    return `${input.email} already has a pending invitation. To send a new link, revoke it under "Pending invitations", then invite again.`;
  }
  return err;
}

/** Invite by email and role; the link is shown once here (Parley keeps only its hash). */
export function InviteForm({ ws }: { ws: string }) {
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
        <h2 id="invite-title">Invite someone</h2>
        <label>
          Email
          <input name="email" type="email" required maxLength={254} autoComplete="off" />
        </label>
        <label>
          Role
          <select name="role" defaultValue="member">
            {ROLES.map((r) => (
              <option key={r.id} value={r.id}>
                {r.label}: {r.what}
              </option>
            ))}
          </select>
        </label>
        <ErrorText error={inviteError(invite.error, invite.variables)} />
        <div>
          <button type="submit" className="primary" disabled={invite.isPending}>
            Send invitation
          </button>
        </div>
      </form>
      {created && (
        <div className="stack invite-link" role="status">
          <p>
            <strong>Invitation sent to {created.email}</strong> as {created.role}. We emailed them this link;
            you can also share it yourself. It is shown only this once and works until{' '}
            {formatDate(created.expiresAt)}, for that email address only.
          </p>
          <SecretField label="Invitation link" value={created.inviteUrl} copyLabel="Copy link" />
        </div>
      )}
    </div>
  );
}

/** Pending invitations (newest first, no links: those exist only in the email and the answer). */
export function Invitations({ ws }: { ws: string }) {
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
      <h2>Pending invitations</h2>
      {list.isPending && <Loading />}
      <ErrorText error={list.error} />
      {list.data && total === 0 && (
        <Empty title="No pending invitations">
          <p>Invite someone with the form above; their invitation waits here until they join.</p>
        </Empty>
      )}
      {list.data && list.data.data.length > 0 && (
        <ul className="people" aria-label="Pending invitations">
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
  const qc = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => api<void>('DELETE', `/api/workspaces/${ws}/invitations/${invitation.id}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['invitations', ws] }),
  });
  return (
    <li className="person">
      <div className="who">
        <p>
          <strong>{invitation.email}</strong> <span className="badge">{invitation.role}</span>
        </p>
        <p className="muted">Expires {formatDate(invitation.expiresAt)}</p>
      </div>
      <button
        type="button"
        className="danger"
        aria-label={`Revoke the invitation of ${invitation.email}`}
        disabled={revoke.isPending}
        onClick={() => revoke.mutate()}
      >
        Revoke
      </button>
      <ErrorText error={revoke.error} />
    </li>
  );
}
