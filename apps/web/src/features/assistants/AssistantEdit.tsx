import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { type Assistant, canManage, type Data, get, patch, post } from '../../api.ts';
import { useWorkspaces } from '../../session.ts';
import { ErrorText, Loading } from '../../shell/ui.tsx';

/**
 * Create (`/assistants/new`) or edit an assistant; owners and admins only
 * (docs/api.md "Roles and permissions").
 */
export function AssistantEdit() {
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
        <h1>Assistant settings</h1>
        <p>Only owners and admins of this workspace can create or edit assistants.</p>
      </section>
    );
  }
  if (id && current.isPending) return <Loading />;
  if (current.error) return <ErrorText error={current.error} />;
  return <AssistantForm ws={ws} assistant={current.data?.data} />;
}

function AssistantForm({ ws, assistant }: { ws: string; assistant?: Assistant }) {
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
      <h1>{assistant ? `Edit ${assistant.name}` : 'New assistant'}</h1>
      <form onSubmit={onSubmit} className="card stack narrow">
        <label>
          Name
          <input name="name" required maxLength={100} defaultValue={assistant?.name} />
        </label>
        <label>
          Instructions
          <textarea
            name="instructions"
            rows={5}
            maxLength={20000}
            defaultValue={assistant?.instructions}
            placeholder="You answer questions about our kettles, politely and briefly."
          />
        </label>
        <label>
          Who can use it
          <select name="visibility" defaultValue={assistant?.visibility ?? 'workspace'}>
            <option value="workspace">Everyone in the workspace</option>
            <option value="private">Only people I grant access</option>
            {assistant?.visibility === 'public' && <option value="public">Public (legacy)</option>}
          </select>
        </label>
        <label>
          Temperature (0 to 2)
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
          Longest answer (tokens)
          <input
            name="maxTokens"
            type="number"
            min={1}
            step={1}
            defaultValue={assistant?.maxTokens ?? 4096}
          />
        </label>
        <label>
          Welcome message
          <input name="welcomeMessage" maxLength={2000} defaultValue={assistant?.welcomeMessage ?? ''} />
        </label>
        <label>
          Minimum confidence (0 to 1; 0 = off)
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
          A reply the knowledge supports less than this is not sent: a person is asked to answer, and sees the
          AI's draft in the inbox to send, edit or replace. Replies then arrive whole instead of word by word.
        </p>
        <ErrorText error={save.error} />
        <div className="row">
          <button type="submit" className="primary" disabled={save.isPending}>
            {assistant ? 'Save changes' : 'Create assistant'}
          </button>
          <Link to={`/w/${ws}/assistants`}>Cancel</Link>
        </div>
      </form>
    </section>
  );
}
