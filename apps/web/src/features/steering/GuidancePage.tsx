import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { type Data, patch } from '../../api.ts';
import { Field, PhraseList, TextAreaField } from './Field.tsx';
import { ItemCard } from './ItemCard.tsx';
import { ItemForm, useItemForm } from './ItemForm.tsx';
import { ItemsSection, useItemsPage } from './ItemsSection.tsx';
import { type ItemHandlers, itemsKey } from './items.ts';
import { SteeringHeader, useManager } from './shared.tsx';
import {
  type Guidance,
  type GuidanceInput,
  type GuidanceKind,
  KINDS,
  kindLabel,
  LIMITS,
  linesOf,
  steeringPath,
} from './types.ts';

/**
 * An assistant's guidance rules (docs/steering.md "Guidance rules"): when to hand off, what never
 * to answer, how to answer. Everyone reads them; owners and admins create, change, turn on and
 * off, and delete them.
 */
export function GuidancePage() {
  const { ws = '', id = '' } = useParams();
  const { manager } = useManager(ws);
  const page = useItemsPage<Guidance>('guidance', id);
  return (
    <section>
      <SteeringHeader ws={ws} id={id} title="Guidance">
        Rules act before the AI answers: a handoff rule gives the conversation to a person and a refuse rule
        answers with its own text when one of its trigger phrases is in the customer’s message. Every rule
        that is on also goes into a remote model’s instructions, in this order.
      </SteeringHeader>
      <ItemsSection
        title="Rules"
        limit={LIMITS.guidance}
        page={page}
        label="Guidance rules"
        manager={manager}
        empty={{
          title: 'No rules yet',
          manager:
            'Add a rule for what must always go to a person, such as refunds, or what the assistant must never answer.',
          member: 'An owner or admin can add rules to this assistant.',
        }}
        renderItem={(r, handlers) => <RuleItem assistantId={id} rule={r} handlers={handlers} />}
        renderForm={(editing, onDone) => <GuidanceForm assistantId={id} editing={editing} onDone={onDone} />}
      />
    </section>
  );
}

function RuleItem(props: { assistantId: string; rule: Guidance; handlers: ItemHandlers | null }) {
  const { assistantId, rule: r } = props;
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
      confirm={{ question: `Delete the rule “${r.name}”?`, label: 'Delete rule' }}
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
          Enabled
        </label>
      }
      error={toggle.error}
    >
      <div className="row st-item-head">
        <strong>{r.name}</strong>
        <span className="badge">{kindLabel(r.kind)}</span>
        <span className={`badge ${r.enabled ? 'ready' : 'failed'}`}>{r.enabled ? 'on' : 'off'}</span>
      </div>
      <p className="st-text">{r.text}</p>
      {r.triggers.length > 0 ? (
        <div className="st-triggers">
          <span className="muted">Trigger phrases:</span>
          <PhraseList phrases={r.triggers} label={`Trigger phrases of ${r.name}`} />
        </div>
      ) : (
        (r.kind === 'handoff' || r.kind === 'refuse') && (
          <p className="muted">No trigger phrases: it only goes into a remote model’s instructions.</p>
        )
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
  const hint = KINDS.find((k) => k.kind === draft.kind)?.hint;
  const title = editing ? `Edit “${editing.name}”` : 'Add a rule';
  return (
    <ItemForm
      title={title}
      noun="rule"
      editing={Boolean(editing)}
      form={form}
      onSubmit={onSubmit}
      onCancel={props.onDone}
    >
      <Field form="rule" name="name" label="Name" errors={errors} hint="Up to 100 characters.">
        {(f) => (
          <input {...f} value={draft.name} maxLength={100} onChange={(e) => set('name', e.target.value)} />
        )}
      </Field>
      <Field form="rule" name="kind" label="Kind" errors={errors} hint={hint}>
        {(f) => (
          <select {...f} value={draft.kind} onChange={(e) => set('kind', e.target.value as GuidanceKind)}>
            {KINDS.map((k) => (
              <option key={k.kind} value={k.kind}>
                {k.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <TextAreaField
        form="rule"
        name="text"
        label={draft.kind === 'refuse' ? 'Reply' : 'Text'}
        errors={errors}
        hint={
          draft.kind === 'refuse'
            ? 'The whole reply when the rule is triggered. Up to 2,000 characters.'
            : 'What the rule says, for a remote model’s instructions. Up to 2,000 characters.'
        }
        rows={3}
        value={draft.text}
        maxLength={2000}
        onChange={(value) => set('text', value)}
      />
      <TextAreaField
        form="rule"
        name="triggers"
        label="Trigger phrases, one per line"
        errors={errors}
        hint="Whole words, any case and accents: “refund” matches “I want a REFUND!” but not “refunding”. Up to 50."
        rows={3}
        value={draft.triggers}
        onChange={(value) => set('triggers', value)}
      />
      {!editing && (
        <label className="check">
          <input type="checkbox" checked={draft.enabled} onChange={(e) => set('enabled', e.target.checked)} />
          Enabled
        </label>
      )}
    </ItemForm>
  );
}
