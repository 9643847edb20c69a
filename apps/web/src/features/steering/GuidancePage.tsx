import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useParams } from 'react-router';
import { type Data, del, get, type OffsetPage, patch, post } from '../../api.ts';
import { Empty, ErrorText, Loading, Pager } from '../../shell/ui.tsx';
import { ConfirmButton } from '../members/ConfirmButton.tsx';
import { Field, PhraseList } from './Field.tsx';
import { SteeringHeader, useManager } from './shared.tsx';
import {
  type FieldErrors,
  fieldErrorsOf,
  formError,
  type Guidance,
  type GuidanceInput,
  type GuidanceKind,
  KINDS,
  kindLabel,
  LIMITS,
  linesOf,
  steeringPath,
} from './types.ts';

const LIMIT = 50;

/**
 * An assistant's guidance rules (docs/steering.md "Guidance rules"): when to hand off, what never
 * to answer, how to answer. Everyone reads them; owners and admins create, change, turn on and
 * off, and delete them.
 */
export function GuidancePage() {
  const { ws = '', id = '' } = useParams();
  const { manager } = useManager(ws);
  const [offset, setOffset] = useState(0);
  const [editing, setEditing] = useState<Guidance | null>(null);
  const list = useQuery({
    queryKey: ['guidance', id, offset],
    queryFn: () =>
      get<OffsetPage<Guidance>>(`${steeringPath(id, 'guidance')}?limit=${LIMIT}&offset=${offset}`),
    placeholderData: keepPreviousData,
  });
  const page = list.data;
  return (
    <section>
      <SteeringHeader ws={ws} id={id} title="Guidance">
        Rules act before the AI answers: a handoff rule gives the conversation to a person and a refuse rule
        answers with its own text when one of its trigger phrases is in the customer’s message. Every rule
        that is on also goes into a remote model’s instructions, in this order.
      </SteeringHeader>
      <div className="grid st-layout">
        <div>
          <h2>Rules{page && page.total > 0 ? ` (${page.total} of at most ${LIMITS.guidance})` : ''}</h2>
          {list.isPending && <Loading />}
          <ErrorText error={list.error} />
          {page?.total === 0 && (
            <Empty title="No rules yet">
              <p>
                {manager
                  ? 'Add a rule for what must always go to a person, such as refunds, or what the assistant must never answer.'
                  : 'An owner or admin can add rules to this assistant.'}
              </p>
            </Empty>
          )}
          {page && page.data.length > 0 && (
            <ul className="list" aria-label="Guidance rules">
              {page.data.map((r) => (
                <RuleItem
                  key={r.id}
                  assistantId={id}
                  rule={r}
                  manager={manager}
                  onEdit={() => setEditing(r)}
                  onDeleted={() => editing?.id === r.id && setEditing(null)}
                />
              ))}
            </ul>
          )}
          {page && <Pager page={page} onChange={setOffset} />}
        </div>
        {manager && (
          <GuidanceForm
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

function RuleItem(props: {
  assistantId: string;
  rule: Guidance;
  manager: boolean;
  onEdit(): void;
  onDeleted(): void;
}) {
  const { assistantId, rule: r, manager } = props;
  const qc = useQueryClient();
  const one = `${steeringPath(assistantId, 'guidance')}/${r.id}`;
  const refresh = () => qc.invalidateQueries({ queryKey: ['guidance', assistantId] });
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => patch<Data<Guidance>>(one, { enabled }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: () => del(one),
    onSuccess: () => {
      props.onDeleted();
      return refresh();
    },
  });
  return (
    <li className="card st-item" aria-label={r.name}>
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
      {manager && (
        <div className="row st-actions">
          <label className="check">
            <input
              type="checkbox"
              // The new state at once, while it is saved and the list read again.
              checked={toggle.isPending ? Boolean(toggle.variables) : r.enabled}
              disabled={toggle.isPending}
              onChange={(e) => toggle.mutate(e.target.checked)}
            />
            Enabled
          </label>
          <span className="links">
            <button type="button" onClick={props.onEdit} aria-label={`Edit ${r.name}`}>
              Edit
            </button>
            <ConfirmButton
              label="Delete"
              ariaLabel={`Delete ${r.name}`}
              question={`Delete the rule “${r.name}”?`}
              confirmLabel="Delete rule"
              pending={remove.isPending}
              onConfirm={() => remove.mutate()}
            />
          </span>
        </div>
      )}
      <ErrorText error={toggle.error ?? remove.error} />
    </li>
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
  const qc = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => toDraft(editing));
  const [errors, setErrors] = useState<FieldErrors>({});
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setErrors((e) => ({ ...e, [key]: '' }));
  };
  const save = useMutation({
    mutationFn: (body: GuidanceInput) =>
      editing
        ? patch<Data<Guidance>>(`${steeringPath(assistantId, 'guidance')}/${editing.id}`, body)
        : post<Data<Guidance>>(steeringPath(assistantId, 'guidance'), body),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['guidance', assistantId] });
      setDraft(toDraft(null));
      props.onDone();
    },
    onError: (err) => setErrors(fieldErrorsOf(err, FIELDS)),
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setErrors({});
    save.mutate({
      name: draft.name,
      kind: draft.kind,
      text: draft.text,
      triggers: linesOf(draft.triggers),
      ...(editing ? {} : { enabled: draft.enabled }),
    });
  };
  const hint = KINDS.find((k) => k.kind === draft.kind)?.hint;
  const title = editing ? `Edit “${editing.name}”` : 'Add a rule';
  return (
    <form onSubmit={onSubmit} className="card stack st-form" aria-label={title} noValidate>
      <h2>{title}</h2>
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
      <Field
        form="rule"
        name="text"
        label={draft.kind === 'refuse' ? 'Reply' : 'Text'}
        errors={errors}
        hint={
          draft.kind === 'refuse'
            ? 'The whole reply when the rule is triggered. Up to 2,000 characters.'
            : 'What the rule says, for a remote model’s instructions. Up to 2,000 characters.'
        }
      >
        {(f) => (
          <textarea
            {...f}
            rows={3}
            value={draft.text}
            maxLength={2000}
            onChange={(e) => set('text', e.target.value)}
          />
        )}
      </Field>
      <Field
        form="rule"
        name="triggers"
        label="Trigger phrases, one per line"
        errors={errors}
        hint="Whole words, any case and accents: “refund” matches “I want a REFUND!” but not “refunding”. Up to 50."
      >
        {(f) => (
          <textarea
            {...f}
            rows={3}
            value={draft.triggers}
            onChange={(e) => set('triggers', e.target.value)}
          />
        )}
      </Field>
      {!editing && (
        <label className="check">
          <input type="checkbox" checked={draft.enabled} onChange={(e) => set('enabled', e.target.checked)} />
          Enabled
        </label>
      )}
      <ErrorText error={save.error && formError(save.error, errors)} />
      <div className="row">
        <button type="submit" className="primary" disabled={save.isPending}>
          {editing ? 'Save rule' : 'Add rule'}
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
