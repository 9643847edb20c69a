import type { AcceptSuggestionInput, Suggestion, SuggestionStatus } from '@parley/contract/suggestions';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { type Data, get, type OffsetPage, post } from '../../api.ts';
import { formatDate } from '../../shell/dates.ts';
import { Choices } from '../../shell/ui.tsx';
import { QuestionAnswerFields } from './Field.tsx';
import { CardFrame } from './ItemCard.tsx';
import { ItemForm } from './ItemForm.tsx';
import { type ItemsPage, ItemsSection } from './ItemsSection.tsx';
import { type ItemHandlers, itemsKey } from './items.ts';
import { SteeringHeader, useManager } from './shared.tsx';
import { type FieldErrors, fieldErrorsOf } from './types.ts';

const PAGE_SIZE = 50;
const STATUSES: readonly SuggestionStatus[] = ['open', 'accepted', 'dismissed'];

const suggestionsKey = (assistantId: string) => ['suggestions', assistantId];
const pathOf = (assistantId: string) => `/api/assistants/${assistantId}/suggestions`;

function useSuggestionsPage(assistantId: string, status: SuggestionStatus): ItemsPage<Suggestion> {
  const [offset, setOffset] = useState(0);
  const query = useQuery({
    queryKey: [...suggestionsKey(assistantId), status, offset],
    queryFn: () =>
      get<OffsetPage<Suggestion>>(
        `${pathOf(assistantId)}?status=${status}&limit=${PAGE_SIZE}&offset=${offset}`,
      ),
    placeholderData: keepPreviousData,
  });
  return { query, setOffset };
}

/** Accepts a suggestion (with edited words, if any) as a curated answer; reads both lists again. */
function useAccept(assistantId: string, onAccepted: (question: string) => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { suggestion: Suggestion; body: AcceptSuggestionInput }) =>
      post<Data<{ answerId: string }>>(`${pathOf(assistantId)}/${v.suggestion.id}/accept`, v.body),
    onSuccess: async (_res, v) => {
      onAccepted(v.body.question ?? v.suggestion.question);
      await Promise.all([
        qc.invalidateQueries({ queryKey: suggestionsKey(assistantId) }),
        qc.invalidateQueries({ queryKey: itemsKey('answers', assistantId) }),
      ]);
    },
  });
}

/**
 * An assistant's suggestions (docs/measuring.md "Suggestions"): questions the AI could not answer
 * well, with the reply a person gave, newest first; owners and admins accept one as a curated
 * answer as it is or after editing it, or dismiss it.
 */
export function SuggestionsPage() {
  const { ws = '', id = '' } = useParams();
  const { manager } = useManager(ws);
  const { t } = useTranslation('steering');
  const [status, setStatus] = useState<SuggestionStatus>('open');
  const [accepted, setAccepted] = useState<string | null>(null);
  const page = useSuggestionsPage(id, status);
  return (
    <section>
      <SteeringHeader ws={ws} id={id} title={t('suggestions.title')}>
        {t('suggestions.intro')}
      </SteeringHeader>
      <fieldset className="tabs">
        <legend className="sr-only">{t('suggestions.status')}</legend>
        <Choices
          name="suggestion-status"
          value={status}
          options={STATUSES.map((s) => ({ value: s, label: t(`suggestions.statuses.${s}`) }))}
          onChange={setStatus}
        />
      </fieldset>
      {accepted && (
        <p role="status">
          {t('suggestions.accepted', { question: accepted })}{' '}
          <Link to={`/w/${ws}/assistants/${id}/answers`}>{t('suggestions.seeAnswers')}</Link>
        </p>
      )}
      <ItemsSection
        key={status}
        title={t(`suggestions.headings.${status}`)}
        page={page}
        label={t('suggestions.list')}
        manager={manager && status === 'open'}
        empty={{
          title: t(`suggestions.empty.${status}`),
          manager: t('suggestions.emptyText'),
          member: t('suggestions.emptyText'),
        }}
        renderItem={(s, handlers) => (
          <SuggestionItem
            ws={ws}
            assistantId={id}
            suggestion={s}
            handlers={handlers}
            onAccepted={setAccepted}
          />
        )}
        renderForm={(editing, onDone) =>
          editing ? (
            <SuggestionForm assistantId={id} editing={editing} onAccepted={setAccepted} onDone={onDone} />
          ) : (
            <p className="card muted st-form">{t('suggestions.chooseEdit')}</p>
          )
        }
      />
    </section>
  );
}

function SuggestionItem(props: {
  ws: string;
  assistantId: string;
  suggestion: Suggestion;
  handlers: ItemHandlers | null;
  onAccepted(question: string): void;
}) {
  const { suggestion: s, handlers, assistantId } = props;
  const { t } = useTranslation(['steering', 'shell']);
  const qc = useQueryClient();
  const accept = useAccept(assistantId, props.onAccepted);
  const dismiss = useMutation({
    mutationFn: () => post(`${pathOf(assistantId)}/${s.id}/dismiss`),
    onSuccess: () => {
      handlers?.onDeleted();
      return qc.invalidateQueries({ queryKey: suggestionsKey(assistantId) });
    },
  });
  const busy = accept.isPending || dismiss.isPending;
  return (
    <CardFrame
      name={s.question}
      error={accept.error ?? dismiss.error}
      actions={
        handlers && (
          <>
            <button
              type="button"
              className="primary"
              disabled={busy}
              aria-label={t('suggestions.acceptName', { question: s.question })}
              onClick={() => accept.mutate({ suggestion: s, body: {} })}
            >
              {t('suggestions.accept')}
            </button>
            <span className="links">
              <button
                type="button"
                onClick={handlers.onEdit}
                aria-label={t('shell:settingsItem.editName', { name: s.question })}
              >
                {t('shell:settingsItem.edit')}
              </button>
              <button
                type="button"
                disabled={busy}
                aria-label={t('suggestions.dismissName', { question: s.question })}
                onClick={() => dismiss.mutate()}
              >
                {t('suggestions.dismiss')}
              </button>
            </span>
          </>
        )
      }
    >
      <div className="row st-item-head">
        <strong className="st-text">{s.question}</strong>
        <span className="badge">{formatDate(s.createdAt)}</span>
      </div>
      <p className="st-text">{s.answer}</p>
      {s.conversationId && (
        <Link className="muted" to={`/w/${props.ws}/inbox/${s.conversationId}`}>
          {t('suggestions.conversation')}
        </Link>
      )}
    </CardFrame>
  );
}

function SuggestionForm(props: {
  assistantId: string;
  editing: Suggestion;
  onAccepted(question: string): void;
  onDone(): void;
}) {
  const { editing } = props;
  const { t } = useTranslation('steering');
  const [draft, setDraft] = useState({ question: editing.question, answer: editing.answer });
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useAccept(props.assistantId, (q) => {
    props.onAccepted(q);
    props.onDone();
  });
  const set = (key: 'question' | 'answer', value: string) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setErrors((e) => ({ ...e, [key]: '' }));
  };
  const onSubmit = () => {
    setErrors({});
    save.mutate(
      { suggestion: editing, body: draft },
      { onError: (err) => setErrors(fieldErrorsOf(err, ['question', 'answer'])) },
    );
  };
  return (
    <ItemForm
      title={t('suggestions.edit')}
      editing
      submitLabel={t('suggestions.submit')}
      form={{ errors, save }}
      onSubmit={onSubmit}
      onCancel={props.onDone}
    >
      <QuestionAnswerFields form="suggestion" errors={errors} draft={draft} set={set} rows={5} />
    </ItemForm>
  );
}
