import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { post } from '../../api.ts';
import { ErrorText } from '../../shell/ui.tsx';

type Pair = { question: string; answer: string };

/** Add a text or a Q&A source (docs/knowledge.md "Source types"). */
export function AddSource({ assistantId }: { assistantId: string }) {
  const qc = useQueryClient();
  const [kind, setKind] = useState<'qa' | 'text'>('qa');
  const [pairs, setPairs] = useState<Pair[]>([{ question: '', answer: '' }]);
  const add = useMutation({
    mutationFn: (body: unknown) => post(`/api/assistants/${assistantId}/sources`, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['sources', assistantId] }),
  });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const name = String(f.get('name') ?? '').trim();
    const body =
      kind === 'qa'
        ? { type: 'qa', ...(name ? { name } : {}), pairs }
        : { type: 'text', name, text: String(f.get('text') ?? '') };
    add.mutate(body, {
      onSuccess: () => {
        form.reset();
        setPairs([{ question: '', answer: '' }]);
      },
    });
  };
  const setPair = (i: number, key: keyof Pair, value: string) =>
    setPairs((old) => old.map((p, j) => (j === i ? { ...p, [key]: value } : p)));

  return (
    <form onSubmit={onSubmit} className="card stack" aria-labelledby="add-title">
      <h2 id="add-title">Add knowledge</h2>
      <fieldset className="tabs">
        <legend className="sr-only">Kind of source</legend>
        <label className="check">
          <input type="radio" name="kind" checked={kind === 'qa'} onChange={() => setKind('qa')} />
          Questions and answers
        </label>
        <label className="check">
          <input type="radio" name="kind" checked={kind === 'text'} onChange={() => setKind('text')} />
          Text
        </label>
      </fieldset>
      <label>
        Name{kind === 'qa' ? ' (optional)' : ''}
        <input name="name" maxLength={200} required={kind === 'text'} />
      </label>
      {kind === 'text' ? (
        <label>
          Text
          <textarea name="text" rows={8} required />
        </label>
      ) : (
        pairs.map((p, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: pairs have no id until saved; order is stable
          <fieldset key={i} className="pair">
            <legend>Pair {i + 1}</legend>
            <label>
              Question
              <input value={p.question} onChange={(e) => setPair(i, 'question', e.target.value)} required />
            </label>
            <label>
              Answer
              <textarea
                value={p.answer}
                rows={3}
                onChange={(e) => setPair(i, 'answer', e.target.value)}
                required
              />
            </label>
          </fieldset>
        ))
      )}
      {kind === 'qa' && (
        <button type="button" onClick={() => setPairs((old) => [...old, { question: '', answer: '' }])}>
          Add another pair
        </button>
      )}
      <ErrorText error={add.error} />
      <button type="submit" className="primary" disabled={add.isPending}>
        Add source
      </button>
    </form>
  );
}
