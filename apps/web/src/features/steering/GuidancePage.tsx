import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Data, patch } from '../../api.ts';
import { Field, PhraseList, TextAreaField } from './Field.tsx';
import { ItemCard } from './ItemCard.tsx';
import { ItemForm, useItemForm } from './ItemForm.tsx';
import { SteeringItemsPage } from './ItemsSection.tsx';
import { type ItemHandlers, itemsKey } from './items.ts';
import {
  type Guidance,
  type GuidanceInput,
  type GuidanceKind,
  KINDS,
  kindHint,
  kindLabel,
  linesOf,
  steeringPath,
} from './types.ts';

/**
 * An assistant's guidance rules (docs/steering.md "Guidance rules"): when to hand off, what never
 * to answer, how to answer. Everyone reads them; owners and admins create, change, turn on and
 * off, and delete them.
 */
export function GuidancePage() {
  const { t } = useTranslation('steering');
  return (
    <SteeringItemsPage<Guidance>
      kind="guidance"
      listTitle={t('guidance.rules')}
      renderItem={(r, handlers, { id }) => <RuleItem assistantId={id} rule={r} handlers={handlers} />}
      renderForm={(editing, onDone, { id }) => (
        <GuidanceForm assistantId={id} editing={editing} onDone={onDone} />
      )}
    />
  );
}

function RuleItem(props: { assistantId: string; rule: Guidance; handlers: ItemHandlers | null }) {
  const { assistantId, rule: r } = props;
  const { t } = useTranslation('steering');
  const qc = useQueryClient();
  // The new state shown at once, set in the click's own handler (the mutation's state arrives a
  // tick later, after React has put a controlled checkbox back), until the list is read again.
  const [shown, setShown] = useState<boolean | null>(null);
  const toggle = useMutation({
    mutationFn: (enabled: boolean) =>
      patch<Data<Guidance>>(`${steeringPath(assistantId, 'guidance')}/${r.id}`, { enabled }),
    onSuccess: () => qc.invalidateQueries({ queryKey: itemsKey('guidance', assistantId) }),
    onSettled: () => setShown(null),
  });
  return (
    <ItemCard
      kind="guidance"
      assistantId={assistantId}
      id={r.id}
      name={r.name}
      handlers={props.handlers}
      confirm={{
        question: t('guidance.deleteQuestion', { name: r.name }),
        label: t('guidance.deleteConfirm'),
      }}
      controls={
        <label className="check">
          <input
            type="checkbox"
            checked={shown ?? r.enabled}
            disabled={toggle.isPending}
            onChange={(e) => {
              setShown(e.target.checked);
              toggle.mutate(e.target.checked);
            }}
          />
          {t('guidance.enabled')}
        </label>
      }
      error={toggle.error}
    >
      <div className="row st-item-head">
        <strong>{r.name}</strong>
        <span className="badge">{kindLabel(r.kind)}</span>
        <span className={`badge ${r.enabled ? 'ready' : 'failed'}`}>
          {r.enabled ? t('guidance.on') : t('guidance.off')}
        </span>
      </div>
      <p className="st-text">{r.text}</p>
      {r.triggers.length > 0 ? (
        <div className="st-triggers">
          <span className="muted">{t('guidance.triggers')}</span>
          <PhraseList phrases={r.triggers} label={t('guidance.triggersOf', { name: r.name })} />
        </div>
      ) : (
        (r.kind === 'handoff' || r.kind === 'refuse') && <p className="muted">{t('guidance.noTriggers')}</p>
      )}
    </ItemCard>
  );
}

type Draft = { name: string; kind: GuidanceKind; text: string; triggers: string; enabled: boolean };

const toDraft = (r: Guidance | null): Draft => ({
  name: r?.name ?? '',
  kind: r?.kind ?? 'handoff',
  text: r?.text ?? '',
  triggers: r?.triggers.join('\n') ?? '',
  enabled: r?.enabled ?? true,
});

const FIELDS = ['name', 'kind', 'text', 'triggers', 'enabled'] as const;

function GuidanceForm(props: { assistantId: string; editing: Guidance | null; onDone(): void }) {
  const { assistantId, editing } = props;
  const { t } = useTranslation('steering');
  const form = useItemForm<Guidance, Draft, GuidanceInput>({
    kind: 'guidance',
    assistantId,
    editing,
    toDraft,
    fields: FIELDS,
    onSaved: () => props.onDone(),
  });
  const { draft, set, errors } = form;
  const onSubmit = () =>
    form.submit({
      name: draft.name,
      kind: draft.kind,
      text: draft.text,
      triggers: linesOf(draft.triggers),
      ...(editing ? {} : { enabled: draft.enabled }),
    });
  const title = editing ? t('guidance.edit', { name: editing.name }) : t('guidance.add');
  return (
    <ItemForm
      title={title}
      submitLabel={editing ? t('guidance.saveSubmit') : t('guidance.addSubmit')}
      editing={Boolean(editing)}
      form={form}
      onSubmit={onSubmit}
      onCancel={props.onDone}
    >
      <Field form="rule" name="name" label={t('form.name')} errors={errors} hint={t('guidance.nameHint')}>
        {(f) => (
          <input {...f} value={draft.name} maxLength={100} onChange={(e) => set('name', e.target.value)} />
        )}
      </Field>
      <Field form="rule" name="kind" label={t('guidance.kind')} errors={errors} hint={kindHint(draft.kind)}>
        {(f) => (
          <select {...f} value={draft.kind} onChange={(e) => set('kind', e.target.value as GuidanceKind)}>
            {KINDS.map((k) => (
              <option key={k} value={k}>
                {kindLabel(k)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <TextAreaField
        form="rule"
        name="text"
        label={draft.kind === 'refuse' ? t('guidance.reply') : t('guidance.text')}
        errors={errors}
        hint={draft.kind === 'refuse' ? t('guidance.replyHint') : t('guidance.textHint')}
        rows={3}
        value={draft.text}
        maxLength={2000}
        onChange={(value) => set('text', value)}
      />
      <TextAreaField
        form="rule"
        name="triggers"
        label={t('guidance.triggerField')}
        errors={errors}
        hint={t('guidance.triggerHint')}
        rows={3}
        value={draft.triggers}
        onChange={(value) => set('triggers', value)}
      />
      {!editing && (
        <label className="check">
          <input type="checkbox" checked={draft.enabled} onChange={(e) => set('enabled', e.target.checked)} />
          {t('guidance.enabled')}
        </label>
      )}
    </ItemForm>
  );
}
