import { useTranslation } from 'react-i18next';
import { PhraseList, QuestionAnswerFields, TextAreaField } from './Field.tsx';
import { ItemCard } from './ItemCard.tsx';
import { ItemForm, useItemForm } from './ItemForm.tsx';
import { SteeringItemsPage } from './ItemsSection.tsx';
import type { ItemHandlers } from './items.ts';
import { type AnswerInput, type CuratedAnswer, linesOf } from './types.ts';

/**
 * An assistant's curated answers (docs/steering.md "Curated answers"): the exact words for a
 * question that matters, sent verbatim when a customer asks it or one of its variants.
 */
export function AnswersPage() {
  const { t } = useTranslation('steering');
  return (
    <SteeringItemsPage<CuratedAnswer>
      kind="answers"
      listTitle={t('answers.answers')}
      renderItem={(a, handlers, { id }) => <AnswerItem assistantId={id} answer={a} handlers={handlers} />}
      renderForm={(editing, onDone, { id }) => (
        <AnswerForm assistantId={id} editing={editing} onDone={onDone} />
      )}
    />
  );
}

function AnswerItem(props: { assistantId: string; answer: CuratedAnswer; handlers: ItemHandlers | null }) {
  const { answer: a } = props;
  const { t } = useTranslation('steering');
  return (
    <ItemCard
      kind="answers"
      assistantId={props.assistantId}
      id={a.id}
      name={a.question}
      handlers={props.handlers}
      confirm={{ question: t('answers.deleteQuestion'), label: t('answers.deleteConfirm') }}
    >
      <div className="row st-item-head">
        <strong>{a.question}</strong>
        <span className="badge">{t('answers.used', { count: a.usedCount })}</span>
      </div>
      <p className="st-text">{a.answer}</p>
      {a.variants.length > 0 && (
        <div className="st-triggers">
          <span className="muted">{t('answers.alsoAsked')}</span>
          <PhraseList phrases={a.variants} label={t('answers.variantsOf', { question: a.question })} />
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
  const { t } = useTranslation('steering');
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
  const title = editing ? t('answers.edit') : t('answers.add');
  return (
    <ItemForm
      title={title}
      submitLabel={editing ? t('answers.saveSubmit') : t('answers.addSubmit')}
      editing={Boolean(editing)}
      form={form}
      onSubmit={onSubmit}
      onCancel={props.onDone}
    >
      <QuestionAnswerFields form="answer" errors={errors} draft={draft} set={set} rows={4} />
      <TextAreaField
        form="answer"
        name="variants"
        label={t('answers.variants')}
        errors={errors}
        hint={t('answers.variantsHint')}
        rows={3}
        value={draft.variants}
        onChange={(value) => set('variants', value)}
      />
    </ItemForm>
  );
}
