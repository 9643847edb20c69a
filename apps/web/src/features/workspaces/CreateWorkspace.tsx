import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { type Data, post, type Workspace } from '../../api.ts';
import { ErrorText } from '../../shell/ui.tsx';

/** Create a workspace (docs/workspaces.md): the creator is its owner; a Pro trial starts. */
export function CreateWorkspace() {
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
      <h1>Create a workspace</h1>
      <p className="muted">
        A workspace holds your assistants, their knowledge and your team. You can create more later.
      </p>
      <form onSubmit={onSubmit} className="card stack narrow">
        <label>
          Workspace name
          <input name="name" required maxLength={100} placeholder="Acme Support" />
        </label>
        <ErrorText error={create.error} />
        <button type="submit" className="primary" disabled={create.isPending}>
          Create workspace
        </button>
      </form>
    </section>
  );
}
