import { useParams } from 'react-router';
import { PhraseList, QuestionAnswerFields, TextAreaField } from './Field.tsx';
import { ItemCard } from './ItemCard.tsx';
import { ItemForm, useItemForm } from './ItemForm.tsx';
import { ItemsSection, useItemsPage } from './ItemsSection.tsx';
import type { ItemHandlers } from './items.ts';
import { SteeringHeader, useManager } from './shared.tsx';
import { type AnswerInput, type CuratedAnswer, LIMITS, linesOf } from './types.ts';

/**
 * An assistant's curated answers (docs/steering.md "Curated answers"): the exact words for a
 * question that matters, sent verbatim when a customer asks it or one of its variants.
 */
export function AnswersPage() {
  const { ws = '', id = '' } = useParams();
  const { manager } = useManager(ws);
  const page = useItemsPage<CuratedAnswer>('answers', id);
  return (
    <section>
      <SteeringHeader ws={ws} id={id} title="Curated answers">
        A customer message that asks one of these questions, or a variant, gets the answer word for word,
        without the model. Small differences in case, accents and punctuation do not matter.
      </SteeringHeader>
      <ItemsSection
        title="Answers"
        limit={LIMITS.answers}
        page={page}
        label="Curated answers"
        manager={manager}
        empty={{
          title: 'No curated answers yet',
          manager:
            'Add the questions whose answer must always be the same words, such as opening hours or a return address.',
          member: 'An owner or admin can add curated answers to this assistant.',
        }}
        renderItem={(a, handlers) => <AnswerItem assistantId={id} answer={a} handlers={handlers} />}
        renderForm={(editing, onDone) => <AnswerForm assistantId={id} editing={editing} onDone={onDone} />}
      />
    </section>
  );
}

function AnswerItem(props: { assistantId: string; answer: CuratedAnswer; handlers: ItemHandlers | null }) {
  const { answer: a } = props;
  return (
    <ItemCard
      kind="answers"
      assistantId={props.assistantId}
      id={a.id}
      name={a.question}
      handlers={props.handlers}
      confirm={{ question: 'Delete this curated answer?', label: 'Delete answer' }}
    >
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
    </ItemCard>
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
  const form = useItemForm<CuratedAnswer, Draft, AnswerInput>({
    kind: 'answers',
    assistantId,
    editing,
    toDraft,
    fields: FIELDS,
    onSaved: () => props.onDone(),
  });
  const { draft, set, errors } = form;
  const onSubmit = () =>
    form.submit({ question: draft.question, answer: draft.answer, variants: linesOf(draft.variants) });
  const title = editing ? 'Edit the curated answer' : 'Add a curated answer';
  return (
    <ItemForm
      title={title}
      noun="answer"
      editing={Boolean(editing)}
      form={form}
      onSubmit={onSubmit}
      onCancel={props.onDone}
    >
      <QuestionAnswerFields form="answer" errors={errors} draft={draft} set={set} rows={4} />
      <TextAreaField
        form="answer"
        name="variants"
        label="Other phrasings, one per line"
        errors={errors}
        hint="Other ways customers ask the same question. Up to 20."
        rows={3}
        value={draft.variants}
        onChange={(value) => set('variants', value)}
      />
    </ItemForm>
  );
}
