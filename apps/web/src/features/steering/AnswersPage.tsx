import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useParams } from 'react-router';
import { type Data, del, get, type OffsetPage, patch, post } from '../../api.ts';
import { Empty, ErrorText, Loading, Pager } from '../../shell/ui.tsx';
import { ConfirmButton } from '../members/ConfirmButton.tsx';
import { Field, PhraseList } from './Field.tsx';
import { SteeringHeader, useManager } from './shared.tsx';
import {
  type AnswerInput,
  type CuratedAnswer,
  type FieldErrors,
  fieldErrorsOf,
  formError,
  LIMITS,
  linesOf,
  steeringPath,
} from './types.ts';

const LIMIT = 50;

/**
 * An assistant's curated answers (docs/steering.md "Curated answers"): the exact words for a
 * question that matters, sent verbatim when a customer asks it or one of its variants.
 */
export function AnswersPage() {
  const { ws = '', id = '' } = useParams();
  const { manager } = useManager(ws);
  const [offset, setOffset] = useState(0);
  const [editing, setEditing] = useState<CuratedAnswer | null>(null);
  const list = useQuery({
    queryKey: ['curated-answers', id, offset],
    queryFn: () =>
      get<OffsetPage<CuratedAnswer>>(`${steeringPath(id, 'answers')}?limit=${LIMIT}&offset=${offset}`),
    placeholderData: keepPreviousData,
  });
  const page = list.data;
  return (
    <section>
      <SteeringHeader ws={ws} id={id} title="Curated answers">
        A customer message that asks one of these questions, or a variant, gets the answer word for word,
        without the model. Small differences in case, accents and punctuation do not matter.
      </SteeringHeader>
      <div className="grid st-layout">
        <div>
          <h2>Answers{page && page.total > 0 ? ` (${page.total} of at most ${LIMITS.answers})` : ''}</h2>
          {list.isPending && <Loading />}
          <ErrorText error={list.error} />
          {page?.total === 0 && (
            <Empty title="No curated answers yet">
              <p>
                {manager
                  ? 'Add the questions whose answer must always be the same words, such as opening hours or a return address.'
                  : 'An owner or admin can add curated answers to this assistant.'}
              </p>
            </Empty>
          )}
          {page && page.data.length > 0 && (
            <ul className="list" aria-label="Curated answers">
              {page.data.map((a) => (
                <AnswerItem
                  key={a.id}
                  assistantId={id}
                  answer={a}
                  manager={manager}
                  onEdit={() => setEditing(a)}
                  onDeleted={() => editing?.id === a.id && setEditing(null)}
                />
              ))}
            </ul>
          )}
          {page && <Pager page={page} onChange={setOffset} />}
        </div>
        {manager && (
          <AnswerForm
            key={editing?.id ?? 'new'}
            assistantId={id}
            editing={editing}
            onDone={() => setEditing(null)}
          />
        )}
      </div>
    </section>
  );
}

function AnswerItem(props: {
  assistantId: string;
  answer: CuratedAnswer;
  manager: boolean;
  onEdit(): void;
  onDeleted(): void;
}) {
  const { assistantId, answer: a, manager } = props;
  const qc = useQueryClient();
  const remove = useMutation({
    mutationFn: () => del(`${steeringPath(assistantId, 'answers')}/${a.id}`),
    onSuccess: () => {
      props.onDeleted();
      return qc.invalidateQueries({ queryKey: ['curated-answers', assistantId] });
    },
  });
  return (
    <li className="card st-item" aria-label={a.question}>
      <div className="row st-item-head">
        <strong>{a.question}</strong>
        <span className="badge">
          used {a.usedCount.toLocaleString('en')} {a.usedCount === 1 ? 'time' : 'times'}
        </span>
      </div>
      <p className="st-text">{a.answer}</p>
      {a.variants.length > 0 && (
        <div className="st-triggers">
          <span className="muted">Also asked as:</span>
          <PhraseList phrases={a.variants} label={`Variants of ${a.question}`} />
        </div>
      )}
      {manager && (
        <div className="row st-actions">
          <span />
          <span className="links">
            <button type="button" onClick={props.onEdit} aria-label={`Edit ${a.question}`}>
              Edit
            </button>
            <ConfirmButton
              label="Delete"
              ariaLabel={`Delete ${a.question}`}
              question="Delete this curated answer?"
              confirmLabel="Delete answer"
              pending={remove.isPending}
              onConfirm={() => remove.mutate()}
            />
          </span>
        </div>
      )}
      <ErrorText error={remove.error} />
    </li>
  );
}

type Draft = { question: string; answer: string; variants: string };

const toDraft = (a: CuratedAnswer | null): Draft => ({
  question: a?.question ?? '',
  answer: a?.answer ?? '',
  variants: a?.variants.join('\n') ?? '',
});

const FIELDS = ['question', 'answer', 'variants'] as const;

function AnswerForm(props: { assistantId: string; editing: CuratedAnswer | null; onDone(): void }) {
  const { assistantId, editing } = props;
  const qc = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => toDraft(editing));
  const [errors, setErrors] = useState<FieldErrors>({});
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setErrors((e) => ({ ...e, [key]: '' }));
  };
  const save = useMutation({
    mutationFn: (body: AnswerInput) =>
      editing
        ? patch<Data<CuratedAnswer>>(`${steeringPath(assistantId, 'answers')}/${editing.id}`, body)
        : post<Data<CuratedAnswer>>(steeringPath(assistantId, 'answers'), body),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['curated-answers', assistantId] });
      setDraft(toDraft(null));
      props.onDone();
    },
    onError: (err) => setErrors(fieldErrorsOf(err, FIELDS)),
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setErrors({});
    save.mutate({ question: draft.question, answer: draft.answer, variants: linesOf(draft.variants) });
  };
  const title = editing ? 'Edit the curated answer' : 'Add a curated answer';
  return (
    <form onSubmit={onSubmit} className="card stack st-form" aria-label={title} noValidate>
      <h2>{title}</h2>
      <Field form="answer" name="question" label="Question" errors={errors} hint="Up to 500 characters.">
        {(f) => (
          <input
            {...f}
            value={draft.question}
            maxLength={500}
            onChange={(e) => set('question', e.target.value)}
          />
        )}
      </Field>
      <Field
        form="answer"
        name="answer"
        label="Answer"
        errors={errors}
        hint="Sent word for word. Up to 4,000 characters."
      >
        {(f) => (
          <textarea
            {...f}
            rows={4}
            value={draft.answer}
            maxLength={4000}
            onChange={(e) => set('answer', e.target.value)}
          />
        )}
      </Field>
      <Field
        form="answer"
        name="variants"
        label="Other phrasings, one per line"
        errors={errors}
        hint="Other ways customers ask the same question. Up to 20."
      >
        {(f) => (
          <textarea
            {...f}
            rows={3}
            value={draft.variants}
            onChange={(e) => set('variants', e.target.value)}
          />
        )}
      </Field>
      <ErrorText error={save.error && formError(save.error, errors)} />
      <div className="row">
        <button type="submit" className="primary" disabled={save.isPending}>
          {editing ? 'Save answer' : 'Add answer'}
        </button>
        {editing && (
          <button type="button" onClick={props.onDone}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
