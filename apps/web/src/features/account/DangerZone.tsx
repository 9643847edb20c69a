import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api, type Data, post } from '../../api.ts';
import { useSetUser, useWorkspaces } from '../../session.ts';
import { ErrorText } from '../../shell/ui.tsx';
import { formatDate } from '../members/types.ts';

/** `POST /api/account/export`: the file is built now and a download link is emailed. */
export function ExportData({ email }: { email: string }) {
  const { t } = useTranslation('account');
  const request = useMutation({
    mutationFn: () => post<Data<{ email: string; expiresAt: string }>>('/api/account/export'),
  });
  const done = request.data?.data;
  return (
    <div className="card stack">
      <h2>{t('data.title')}</h2>
      <p>{t('data.intro', { email })}</p>
      <ErrorText error={request.error} />
      <div className="save-row">
        <button type="button" onClick={() => request.mutate()} disabled={request.isPending}>
          {t('data.button')}
        </button>
        <p role="status" className="ok-text">
          {done ? t('data.done', { email: done.email, date: formatDate(done.expiresAt) }) : ''}
        </p>
      </div>
    </div>
  );
}

/** `DELETE /api/account {confirm: "DELETE"}`: immediate and irreversible, so it is typed out. */
export function DeleteAccount() {
  const { t } = useTranslation('account');
  const setUser = useSetUser();
  const navigate = useNavigate();
  const [typed, setTyped] = useState('');
  const owned = useWorkspaces().data?.data.filter((w) => w.role === 'owner') ?? [];
  const remove = useMutation({
    mutationFn: () => api<void>('DELETE', '/api/account', { confirm: 'DELETE' }),
    onSuccess: () => {
      setUser(null);
      navigate('/signin');
    },
  });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (typed === 'DELETE') remove.mutate();
  };
  return (
    <form onSubmit={onSubmit} className="card stack danger-zone" aria-labelledby="delete-title">
      <h2 id="delete-title">{t('delete.title')}</h2>
      <p>{owned.length > 0 ? t('delete.warningOwner') : t('delete.warning')}</p>
      {owned.length > 0 && (
        <ul>
          {owned.map((w) => (
            <li key={w.id}>{w.name}</li>
          ))}
        </ul>
      )}
      {owned.length > 0 && <p className="muted">{t('delete.transfer')}</p>}
      <label>
        {t('delete.confirm')}
        <input
          name="confirm"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          autoComplete="off"
          spellCheck={false}
        />
      </label>
      <ErrorText error={remove.error} />
      <div>
        <button type="submit" className="danger" disabled={typed !== 'DELETE' || remove.isPending}>
          {t('delete.button')}
        </button>
      </div>
    </form>
  );
}
