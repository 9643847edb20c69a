import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { type Data, post, type Workspace } from '../../api.ts';
import { ErrorText } from '../../shell/ui.tsx';

/** Create a workspace (docs/workspaces.md): the creator is its owner; a Pro trial starts. */
export function CreateWorkspace() {
  const { t } = useTranslation('workspaces');
  const qc = useQueryClient();
  const navigate = useNavigate();
  const create = useMutation({
    mutationFn: (name: string) => post<Data<Workspace>>('/api/workspaces', { name }),
    onSuccess: async (res) => {
      await qc.invalidateQueries({ queryKey: ['workspaces'] });
      navigate(`/w/${res.data.id}`);
    },
  });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    create.mutate(String(new FormData(e.currentTarget).get('name') ?? ''));
  };
  return (
    <section>
      <h1>{t('create.title')}</h1>
      <p className="muted">{t('create.intro')}</p>
      <form onSubmit={onSubmit} className="card stack narrow">
        <label>
          {t('create.name')}
          <input name="name" required maxLength={100} placeholder={t('create.placeholder')} />
        </label>
        <ErrorText error={create.error} />
        <button type="submit" className="primary" disabled={create.isPending}>
          {t('create.button')}
        </button>
      </form>
    </section>
  );
}
