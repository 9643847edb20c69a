import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { get, type OffsetPage, type Source } from '../../api.ts';
import { ErrorText } from '../../shell/ui.tsx';
import { Field, TextAreaField } from './Field.tsx';
import { ItemForm, useItemForm } from './ItemForm.tsx';
import {
  type AssistantTest,
  LIMITS,
  linesOf,
  OUTCOMES,
  outcomeLabel,
  type ReplyOutcome,
  type TestInput,
} from './types.ts';

type Draft = {
  name: string;
  turns: string[];
  outcome: ReplyOutcome | '';
  contains: string;
  notContains: string;
  cites: string[];
};

const toDraft = (t: AssistantTest | null): Draft => ({
  name: t?.name ?? '',
  turns: t?.turns.map((x) => x.content) ?? [''],
  outcome: t?.expect.outcome ?? '',
  contains: t?.expect.contains?.join('\n') ?? '',
  notContains: t?.expect.notContains?.join('\n') ?? '',
  cites: t?.expect.cites ?? [],
});

const FIELDS = ['name', 'turns', 'expect.outcome', 'expect.contains', 'expect.notContains', 'expect.cites'];

/** The assistant's sources, for the sources a reply must cite (docs/knowledge.md). */
export function useSources(assistantId: string) {
  return useQuery({
    queryKey: ['sources', assistantId, 'all'],
    queryFn: () => get<OffsetPage<Source>>(`/api/assistants/${assistantId}/sources?limit=100&offset=0`),
  });
}

/**
 * A test's form (docs/steering.md "Tests"): its name, the customer's messages (1 to 10; the reply
 * to the last one is judged) and what that reply must do. Creates a test, or changes `editing`.
 */
export function TestForm(props: {
  assistantId: string;
  editing: AssistantTest | null;
  onDone(saved: AssistantTest | null): void;
}) {
  const { assistantId, editing } = props;
  const { t } = useTranslation('steering');
  const qc = useQueryClient();
  const sources = useSources(assistantId);
  const form = useItemForm<AssistantTest, Draft, TestInput>({
    kind: 'tests',
    assistantId,
    editing,
    toDraft,
    fields: FIELDS,
    onSaved: (res) => {
      qc.setQueryData(['assistant-test', assistantId, res.data.id], res);
      props.onDone(res.data);
    },
  });
  const { draft, set, errors } = form;
  const onSubmit = () => {
    const contains = linesOf(draft.contains);
    const notContains = linesOf(draft.notContains);
    form.submit({
      name: draft.name,
      turns: draft.turns.map((content) => ({ content })),
      expect: {
        ...(draft.outcome && { outcome: draft.outcome }),
        ...(contains.length > 0 && { contains }),
        ...(notContains.length > 0 && { notContains }),
        ...(draft.cites.length > 0 && { cites: draft.cites }),
      },
    });
  };
  const setTurn = (i: number, value: string) =>
    set(
      'turns',
      draft.turns.map((turn, j) => (j === i ? value : turn)),
    );
  const known = sources.data?.data ?? [];
  // Sources named by the test that the assistant no longer has: kept, and said.
  const gone = draft.cites.filter((c) => !known.some((s) => s.id === c));
  const title = editing ? t('test.edit', { name: editing.name }) : t('test.add');
  return (
    <ItemForm
      title={title}
      submitLabel={editing ? t('test.saveSubmit') : t('test.addSubmit')}
      editing={Boolean(editing)}
      form={form}
      onSubmit={onSubmit}
      onCancel={() => props.onDone(null)}
    >
      <Field form="test" name="name" label={t('form.name')} errors={errors} hint={t('test.nameHint')}>
        {(f) => (
          <input {...f} value={draft.name} maxLength={200} onChange={(e) => set('name', e.target.value)} />
        )}
      </Field>
      <fieldset className="st-group" aria-describedby={errors.turns ? 'test-turns-error' : undefined}>
        <legend>{t('test.turns')}</legend>
        <p className="muted st-hint">{t('test.turnsHint', { max: LIMITS.turns })}</p>
        {draft.turns.map((turn, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the messages are their positions
          <div key={i} className="st-turn">
            <label htmlFor={`test-turn-${i}`}>{t('test.message', { n: i + 1 })}</label>
            <div className="row">
              <textarea
                id={`test-turn-${i}`}
                className="grow"
                rows={2}
                maxLength={8000}
                value={turn}
                onChange={(e) => setTurn(i, e.target.value)}
              />
              {draft.turns.length > 1 && (
                <button
                  type="button"
                  aria-label={t('test.removeMessage', { n: i + 1 })}
                  onClick={() =>
                    set(
                      'turns',
                      draft.turns.filter((_, j) => j !== i),
                    )
                  }
                >
                  {t('test.remove')}
                </button>
              )}
            </div>
          </div>
        ))}
        {draft.turns.length < LIMITS.turns && (
          <div>
            <button type="button" onClick={() => set('turns', [...draft.turns, ''])}>
              {t('test.addMessage')}
            </button>
          </div>
        )}
        {errors.turns && (
          <p id="test-turns-error" className="error st-hint">
            {errors.turns}
          </p>
        )}
      </fieldset>
      <fieldset className="st-group">
        <legend>{t('test.must')}</legend>
        <Field form="test" name="expect.outcome" label={t('test.outcome')} errors={errors}>
          {(f) => (
            <select
              {...f}
              value={draft.outcome}
              onChange={(e) => set('outcome', e.target.value as ReplyOutcome | '', 'expect.outcome')}
            >
              <option value="">{t('test.any')}</option>
              {OUTCOMES.map((o) => (
                <option key={o} value={o}>
                  {outcomeLabel(o)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <TextAreaField
          form="test"
          name="expect.contains"
          label={t('test.contains')}
          errors={errors}
          hint={t('test.containsHint')}
          rows={2}
          value={draft.contains}
          onChange={(value) => set('contains', value, 'expect.contains')}
        />
        <TextAreaField
          form="test"
          name="expect.notContains"
          label={t('test.notContains')}
          errors={errors}
          hint={t('test.notContainsHint')}
          rows={2}
          value={draft.notContains}
          onChange={(value) => set('notContains', value, 'expect.notContains')}
        />
        <fieldset className="st-group st-cites">
          <legend>{t('test.cites')}</legend>
          {sources.isPending && <p className="muted">{t('test.loadingSources')}</p>}
          <ErrorText error={sources.error} />
          {sources.data && known.length === 0 && gone.length === 0 && (
            <p className="muted">{t('test.noSources')}</p>
          )}
          {known.map((s) => (
            <label key={s.id} className="check">
              <input
                type="checkbox"
                checked={draft.cites.includes(s.id)}
                onChange={(e) =>
                  set(
                    'cites',
                    e.target.checked ? [...draft.cites, s.id] : draft.cites.filter((c) => c !== s.id),
                    'expect.cites',
                  )
                }
              />
              {s.name}
            </label>
          ))}
          {sources.data &&
            gone.map((c) => (
              <label key={c} className="check">
                <input
                  type="checkbox"
                  checked
                  onChange={() =>
                    set(
                      'cites',
                      draft.cites.filter((x) => x !== c),
                      'expect.cites',
                    )
                  }
                />
                {t('test.goneSource', { id: c })}
              </label>
            ))}
          {errors['expect.cites'] && <p className="error st-hint">{errors['expect.cites']}</p>}
        </fieldset>
      </fieldset>
    </ItemForm>
  );
}
