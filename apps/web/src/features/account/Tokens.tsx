import type { CreatedPersonalToken } from '@parley/contract/api-types';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { api, type Data, get, post } from '../../api.ts';
import { SecretField } from '../../shell/SecretField.tsx';
import { ErrorText, Loading } from '../../shell/ui.tsx';
import { ConfirmButton } from '../members/ConfirmButton.tsx';
import { formatDate } from '../members/types.ts';
import type { PersonalToken } from './types.ts';
import '../members/team.css';

/**
 * Personal access tokens (docs/accounts.md): `pat_...` act as you on `/api/workspaces/...` for
 * scripts. A password change does not revoke them, so they are managed here one by one.
 */
export function Tokens() {
  const { t } = useTranslation('account');
  const qc = useQueryClient();
  const list = useQuery({
    queryKey: ['tokens'],
    queryFn: () => get<Data<PersonalToken[]>>('/api/auth/tokens'),
  });
  const create = useMutation({
    mutationFn: (name: string) => post<Data<CreatedPersonalToken>>('/api/auth/tokens', { name }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['tokens'] }),
  });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    create.mutate(String(new FormData(form).get('name') ?? '').trim(), { onSuccess: () => form.reset() });
  };
  const created = create.data?.data;
  return (
    <div className="card stack">
      <h2>{t('tokens.title')}</h2>
      <p className="muted">
        <Trans t={t} i18nKey="tokens.intro" components={{ code: <code /> }} />
      </p>
      {list.isPending && <Loading />}
      <ErrorText error={list.error} />
      {list.data && list.data.data.length === 0 && <p>{t('tokens.none')}</p>}
      {list.data && list.data.data.length > 0 && (
        <ul className="tokens" aria-label={t('tokens.list')}>
          {list.data.data.map((token) => (
            <TokenRow key={token.id} token={token} />
          ))}
        </ul>
      )}
      <form onSubmit={onSubmit} className="stack" aria-label={t('tokens.create')}>
        <label>
          {t('tokens.name')}
          <input name="name" required maxLength={100} placeholder={t('tokens.namePlaceholder')} />
        </label>
        <ErrorText error={create.error} />
        <div>
          <button type="submit" disabled={create.isPending}>
            {t('tokens.createButton')}
          </button>
        </div>
      </form>
      {created && (
        <div className="stack" role="status">
          <p className="warn">
            <strong>{t('tokens.copyNow', { name: created.name })}</strong>
          </p>
          <SecretField label={t('tokens.newToken')} value={created.token} copyLabel={t('tokens.copy')}>
            <button type="button" onClick={() => create.reset()}>
              {t('tokens.hide')}
            </button>
          </SecretField>
        </div>
      )}
    </div>
  );
}

function TokenRow({ token }: { token: PersonalToken }) {
  const { t } = useTranslation('account');
  const qc = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => api<void>('DELETE', `/api/auth/tokens/${token.id}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['tokens'] }),
  });
  return (
    <li>
      <span>
        <strong>{token.name}</strong> <span className="muted secret">…{token.last4}</span>
        <br />
        <span className="muted">
          {t('tokens.used', {
            created: formatDate(token.createdAt),
            used: token.lastUsedAt ? formatDate(token.lastUsedAt) : t('tokens.never'),
          })}
        </span>
      </span>
      <ConfirmButton
        label={t('tokens.revoke')}
        ariaLabel={t('tokens.revokeName', { name: token.name })}
        question={t('tokens.revokeQuestion', { name: token.name })}
        confirmLabel={t('tokens.revokeConfirm')}
        pending={revoke.isPending}
        onConfirm={() => revoke.mutate()}
      />
      <ErrorText error={revoke.error} />
    </li>
  );
}
