import { MAX_SLA_MINUTES, SLA_CHANNELS } from '@parley/contract/sla';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Data, patch, post } from '../../api.ts';
import { i18n } from '../../i18n/index.ts';
import { ErrorText } from '../../shell/ui.tsx';
import { CHANNEL_WORDS } from '../inbox/types.ts';
import { useLabels } from '../labels/types.ts';
import { Field } from '../steering/Field.tsx';
import { type FieldErrors, fieldErrorsOf, formError } from '../steering/types.ts';
import {
  type SlaChannel,
  type SlaPolicy,
  type SlaPolicyInput,
  slaPath,
  TARGETS,
  type TargetKey,
  targetName,
} from './types.ts';

const FIELDS = [
  'name',
  ...TARGETS,
  'businessHoursOnly',
  'appliesTo.channels',
  'appliesTo.labelIds',
  'priority',
] as const;

const UNITS = { min: 1, h: 60, d: 1440 } as const;
type Unit = keyof typeof UNITS;
type Target = { amount: string; unit: Unit };
type Draft = {
  name: string;
  targets: Record<TargetKey, Target>;
  businessHoursOnly: boolean;
  channels: SlaChannel[];
  labelIds: string[];
  priority: string;
};

/** A stored target in the largest unit that says it exactly: 480 → 8 hours. */
function targetOf(m: number | null | undefined): Target {
  if (m == null) return { amount: '', unit: 'min' };
  const unit = m % UNITS.d === 0 ? 'd' : m % UNITS.h === 0 ? 'h' : 'min';
  return { amount: String(m / UNITS[unit]), unit };
}

function draftOf(p: SlaPolicy | null): Draft {
  return {
    name: p?.name ?? '',
    targets: {
      firstResponseMinutes: targetOf(p?.firstResponseMinutes),
      nextResponseMinutes: targetOf(p?.nextResponseMinutes),
      resolutionMinutes: targetOf(p?.resolutionMinutes),
    },
    businessHoursOnly: p?.businessHoursOnly ?? true,
    channels: p?.appliesTo.channels ?? [],
    labelIds: p?.appliesTo.labelIds ?? [],
    priority: String(p?.priority ?? 10),
  };
}

/** A target's minutes (null: none), or its message when the amount is not a number. */
function minutesOf(t: Target): number | null | string {
  if (t.amount.trim() === '') return null;
  const n = Number(t.amount) * UNITS[t.unit];
  return Number.isFinite(n) ? n : i18n.t('sla:form.notANumber');
}

/** Add a policy, or change `editing` (owners and admins, on Pro and above: docs/sla.md "Policies"). */
export function SlaForm(props: { ws: string; editing: SlaPolicy | null; onDone(): void }) {
  const { ws, editing } = props;
  const { t } = useTranslation('sla');
  const qc = useQueryClient();
  const labels = useLabels(ws).data?.data ?? [];
  const [draft, setDraft] = useState<Draft>(() => draftOf(editing));
  const [errors, setErrors] = useState<FieldErrors>({});
  const update = (change: Partial<Draft>, field: string) => {
    setDraft((d) => ({ ...d, ...change }));
    setErrors((e) => ({ ...e, [field]: '' }));
  };
  const setTarget = (key: TargetKey, change: Partial<Target>) =>
    update({ targets: { ...draft.targets, [key]: { ...draft.targets[key], ...change } } }, key);
  const toggle = <T extends string>(list: T[], item: T, on: boolean) =>
    on ? [...list, item] : list.filter((x) => x !== item);
  const save = useMutation({
    mutationFn: (body: SlaPolicyInput) =>
      editing
        ? patch<Data<SlaPolicy>>(`${slaPath(ws)}/${editing.id}`, body)
        : post<Data<SlaPolicy>>(slaPath(ws), body),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['sla-policies', ws] });
      setDraft(draftOf(null));
      props.onDone();
    },
    onError: (err) => setErrors(fieldErrorsOf(err, FIELDS)),
  });
  const submit = () => {
    const minutes = Object.fromEntries(TARGETS.map((key) => [key, minutesOf(draft.targets[key])]));
    const wrong = Object.entries(minutes).filter(([, v]) => typeof v === 'string');
    if (wrong.length > 0) return setErrors(Object.fromEntries(wrong) as FieldErrors);
    save.mutate({
      name: draft.name.trim(),
      ...(minutes as Record<TargetKey, number | null>),
      businessHoursOnly: draft.businessHoursOnly,
      // In the order the lists show them, so a policy reads the same wherever it was made.
      appliesTo: {
        channels: SLA_CHANNELS.filter((c) => draft.channels.includes(c)),
        labelIds: draft.labelIds,
      },
      priority: Number(draft.priority),
    });
  };
  const title = editing ? t('form.editTitle', { name: editing.name }) : t('form.addTitle');
  return (
    <form
      className="card stack"
      aria-label={title}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setErrors({});
        submit();
      }}
    >
      <h2>{title}</h2>
      <Field form="sla" name="name" label={t('form.name')} errors={errors} hint={t('form.nameHint')}>
        {(f) => (
          <input
            {...f}
            value={draft.name}
            maxLength={100}
            autoComplete="off"
            onChange={(e) => update({ name: e.target.value }, 'name')}
          />
        )}
      </Field>
      <p className="muted">{t('form.targetsHint')}</p>
      {TARGETS.map((key) => (
        <Field key={key} form="sla" name={key} label={targetName(key)} errors={errors}>
          {(f) => (
            <span className="sla-target">
              <input
                {...f}
                type="number"
                inputMode="numeric"
                min={1}
                max={MAX_SLA_MINUTES / UNITS[draft.targets[key].unit]}
                value={draft.targets[key].amount}
                onChange={(e) => setTarget(key, { amount: e.target.value })}
              />
              <select
                aria-label={t('form.unit', { target: targetName(key) })}
                value={draft.targets[key].unit}
                onChange={(e) => setTarget(key, { unit: e.target.value as Unit })}
              >
                {(Object.keys(UNITS) as Unit[]).map((u) => (
                  <option key={u} value={u}>
                    {t(`form.units.${u}`)}
                  </option>
                ))}
              </select>
            </span>
          )}
        </Field>
      ))}
      <label className="check">
        <input
          type="checkbox"
          checked={draft.businessHoursOnly}
          onChange={(e) => update({ businessHoursOnly: e.target.checked }, 'businessHoursOnly')}
        />
        {t('form.businessHoursOnly')}
      </label>
      <fieldset className="sla-choices" aria-describedby="sla-channels-hint">
        <legend>{t('form.channels')}</legend>
        {SLA_CHANNELS.map((c) => (
          <label key={c} className="check">
            <input
              type="checkbox"
              checked={draft.channels.includes(c)}
              onChange={(e) =>
                update({ channels: toggle(draft.channels, c, e.target.checked) }, 'appliesTo.channels')
              }
            />
            {CHANNEL_WORDS[c]}
          </label>
        ))}
        <p id="sla-channels-hint" className="muted st-hint">
          {t('form.channelsHint')}
        </p>
        {errors['appliesTo.channels'] && <p className="error st-hint">{errors['appliesTo.channels']}</p>}
      </fieldset>
      <fieldset className="sla-choices" aria-describedby="sla-labels-hint">
        <legend>{t('form.labels')}</legend>
        {labels.map((l) => (
          <label key={l.id} className="check">
            <input
              type="checkbox"
              checked={draft.labelIds.includes(l.id)}
              onChange={(e) =>
                update({ labelIds: toggle(draft.labelIds, l.id, e.target.checked) }, 'appliesTo.labelIds')
              }
            />
            <span className="label-swatch" style={{ background: l.color }} aria-hidden="true" />
            {l.name}
          </label>
        ))}
        <p id="sla-labels-hint" className="muted st-hint">
          {labels.length === 0 ? t('form.noLabels') : t('form.labelsHint')}
        </p>
        {errors['appliesTo.labelIds'] && <p className="error st-hint">{errors['appliesTo.labelIds']}</p>}
      </fieldset>
      <Field
        form="sla"
        name="priority"
        label={t('form.priority')}
        errors={errors}
        hint={t('form.priorityHint')}
      >
        {(f) => (
          <input
            {...f}
            type="number"
            inputMode="numeric"
            min={1}
            max={100}
            value={draft.priority}
            onChange={(e) => update({ priority: e.target.value }, 'priority')}
          />
        )}
      </Field>
      <ErrorText error={save.error && formError(save.error, errors)} />
      <div className="row">
        <button type="submit" className="primary" disabled={save.isPending}>
          {editing ? t('form.save') : t('form.add')}
        </button>
        {editing && (
          <button type="button" onClick={props.onDone}>
            {t('form.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}
