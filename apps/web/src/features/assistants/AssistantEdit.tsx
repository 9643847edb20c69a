import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { type Assistant, canManage, type Data, get, patch, post } from '../../api.ts';
import { useWorkspaces } from '../../session.ts';
import { ErrorText, Loading } from '../../shell/ui.tsx';

/**
 * Create (`/assistants/new`) or edit an assistant; owners and admins only
 * (docs/api.md "Roles and permissions").
 */
export function AssistantEdit() {
  const { t } = useTranslation('assistants');
  const { ws = '', id } = useParams();
  const role = useWorkspaces().data?.data.find((w) => w.id === ws)?.role;
  const current = useQuery({
    queryKey: ['assistant', id],
    queryFn: () => get<Data<Assistant>>(`/api/assistants/${id}`),
    enabled: Boolean(id),
  });
  if (role && !canManage(role)) {
    return (
      <section>
        <h1>{t('edit.settingsTitle')}</h1>
        <p>{t('edit.notAllowed')}</p>
      </section>
    );
  }
  if (id && current.isPending) return <Loading />;
  if (current.error) return <ErrorText error={current.error} />;
  return <AssistantForm ws={ws} assistant={current.data?.data} />;
}

function AssistantForm({ ws, assistant }: { ws: string; assistant?: Assistant }) {
  const { t } = useTranslation('assistants');
  const qc = useQueryClient();
  const navigate = useNavigate();
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      assistant
        ? patch<Data<Assistant>>(`/api/assistants/${assistant.id}`, body)
        : post<Data<Assistant>>('/api/assistants', { ...body, workspaceId: ws }),
    onSuccess: async (res) => {
      qc.setQueryData(['assistant', res.data.id], res);
      await qc.invalidateQueries({ queryKey: ['assistants', ws] });
      navigate(assistant ? `/w/${ws}/assistants` : `/w/${ws}/assistants/${res.data.id}/knowledge`);
    },
  });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const welcome = String(f.get('welcomeMessage') ?? '').trim();
    save.mutate({
      name: String(f.get('name') ?? ''),
      instructions: String(f.get('instructions') ?? ''),
      visibility: f.get('visibility'),
      temperature: Number(f.get('temperature')),
      maxTokens: Number(f.get('maxTokens')),
      welcomeMessage: welcome || null,
      minConfidence: Number(f.get('minConfidence')),
    });
  };
  return (
    <section>
      <h1>{assistant ? t('edit.editTitle', { name: assistant.name }) : t('edit.newTitle')}</h1>
      <form onSubmit={onSubmit} className="card stack narrow">
        <label>
          {t('edit.name')}
          <input name="name" required maxLength={100} defaultValue={assistant?.name} />
        </label>
        <label>
          {t('edit.instructions')}
          <textarea
            name="instructions"
            rows={5}
            maxLength={20000}
            defaultValue={assistant?.instructions}
            placeholder={t('edit.instructionsPlaceholder')}
          />
        </label>
        <label>
          {t('edit.visibility')}
          <select name="visibility" defaultValue={assistant?.visibility ?? 'workspace'}>
            <option value="workspace">{t('edit.visibilityWorkspace')}</option>
            <option value="private">{t('edit.visibilityPrivate')}</option>
            {assistant?.visibility === 'public' && (
              <option value="public">{t('edit.visibilityPublic')}</option>
            )}
          </select>
        </label>
        <label>
          {t('edit.temperature')}
          <input
            name="temperature"
            type="number"
            min={0}
            max={2}
            step={0.1}
            defaultValue={assistant?.temperature ?? 0.7}
          />
        </label>
        <label>
          {t('edit.maxTokens')}
          <input
            name="maxTokens"
            type="number"
            min={1}
            step={1}
            defaultValue={assistant?.maxTokens ?? 4096}
          />
        </label>
        <label>
          {t('edit.welcome')}
          <input name="welcomeMessage" maxLength={2000} defaultValue={assistant?.welcomeMessage ?? ''} />
        </label>
        <label>
          {t('edit.minConfidence')}
          <input
            name="minConfidence"
            type="number"
            min={0}
            max={1}
            step={0.01}
            defaultValue={assistant?.minConfidence ?? 0}
            aria-describedby="min-confidence-help"
          />
        </label>
        <p id="min-confidence-help" className="muted">
          {t('edit.minConfidenceHelp')}
        </p>
        <ErrorText error={save.error} />
        <div className="row">
          <button type="submit" className="primary" disabled={save.isPending}>
            {assistant ? t('edit.save') : t('edit.create')}
          </button>
          <Link to={`/w/${ws}/assistants`}>{t('edit.cancel')}</Link>
        </div>
      </form>
    </section>
  );
}
