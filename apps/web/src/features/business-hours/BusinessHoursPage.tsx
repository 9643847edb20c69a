import { MAX_OUTSIDE_HOURS_MESSAGE } from '@parley/contract/business-hours';
import { type UseMutationResult, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ApiError, canManage } from '../../api.ts';
import { useWorkspaces } from '../../session.ts';
import { readerTimeZone, timeZones } from '../../shell/dates.ts';
import { ErrorText, Loading } from '../../shell/ui.tsx';
import { ConfirmButton } from '../members/ConfirmButton.tsx';
import { Field, TextAreaField } from '../steering/Field.tsx';
import { HolidaysEditor } from './HolidaysEditor.tsx';
import {
  type BusinessHours,
  type Draft,
  defaultDraft,
  draftOf,
  putHours,
  useBusinessHours,
} from './types.ts';
import { WeekEditor } from './WeekEditor.tsx';
import '../steering/steering.css';
import './bh.css';

/**
 * The workspace's business hours (docs/business-hours.md; docs/dashboard.md "Pages"): every member
 * reads them; owners and admins set the time zone, each day's ranges, holidays and the message
 * customers get when handed to a person outside them, or go back to always open.
 */
export function BusinessHoursPage() {
  const { t } = useTranslation('business-hours');
  const { ws = '' } = useParams();
  const role = useWorkspaces().data?.data.find((w) => w.id === ws)?.role;
  const manage = canManage(role);
  const hours = useBusinessHours(ws);
  const qc = useQueryClient();
  // Here rather than in the form: a save remounts the form (its key), and its outcome stays shown.
  const save = useMutation({
    mutationFn: (body: Draft | null) => putHours(ws, body),
    onSuccess: (res) => qc.setQueryData(['business-hours', ws], res),
  });
  return (
    <section>
      <h1>{t('title')}</h1>
      <p className="muted">{t('intro')}</p>
      {hours.isPending && <Loading />}
      <ErrorText error={hours.error} />
      {hours.isSuccess && (
        // A new form for each answer of the server, so a save or a clear starts from what is stored.
        <HoursForm
          key={hours.data.data?.updatedAt ?? 'none'}
          saved={hours.data.data}
          manage={manage}
          save={save}
        />
      )}
      {save.isSuccess && !save.isPending && <p role="status">{save.data.data ? t('saved') : t('removed')}</p>}
    </section>
  );
}

/** Field messages of a 400 by their path (`week.mon.0.close`, `timezone`...). */
function errorsOf(error: unknown): Record<string, string> {
  return error instanceof ApiError && error.status === 400 && error.details ? error.details : {};
}

function HoursForm(props: {
  saved: BusinessHours | null;
  manage: boolean;
  save: UseMutationResult<{ data: BusinessHours | null }, Error, Draft | null>;
}) {
  const { saved, manage, save } = props;
  const { t } = useTranslation('business-hours');
  const [draft, setDraft] = useState<Draft>(saved ? draftOf(saved) : defaultDraft(readerTimeZone()));
  const [editing, setEditing] = useState(saved !== null);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const errors = errorsOf(save.error);
  const zones = timeZones();
  if (!editing) {
    return (
      <div className="card stack">
        <p>
          <Trans t={t} i18nKey="alwaysOpen" components={{ strong: <strong /> }} />
        </p>
        {manage && (
          <div className="row">
            <button type="button" className="primary" onClick={() => setEditing(true)}>
              {t('set')}
            </button>
          </div>
        )}
      </div>
    );
  }
  const readOnly = !manage;
  return (
    <form
      className="card stack"
      aria-label={t('form')}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate({ ...draft, outsideHoursMessage: draft.outsideHoursMessage.trim() });
      }}
    >
      {!saved && <p className="muted">{t('notSaved')}</p>}
      <Field form="bh" name="timezone" label={t('timezone')} errors={errors}>
        {(f) => (
          <select
            {...f}
            value={draft.timezone}
            disabled={readOnly}
            onChange={(e) => set('timezone', e.target.value)}
          >
            {!zones.includes(draft.timezone) && <option value={draft.timezone}>{draft.timezone}</option>}
            {zones.map((z) => (
              <option key={z} value={z}>
                {z}
              </option>
            ))}
          </select>
        )}
      </Field>
      <WeekEditor week={draft.week} readOnly={readOnly} errors={errors} onChange={(w) => set('week', w)} />
      <HolidaysEditor
        holidays={draft.holidays}
        readOnly={readOnly}
        error={errors.holidays ?? Object.entries(errors).find(([k]) => k.startsWith('holidays.'))?.[1]}
        onChange={(h) => set('holidays', h)}
      />
      <TextAreaField
        form="bh"
        name="outsideHoursMessage"
        label={t('message')}
        errors={errors}
        rows={3}
        maxLength={MAX_OUTSIDE_HOURS_MESSAGE}
        value={draft.outsideHoursMessage}
        onChange={(v) => set('outsideHoursMessage', v)}
        hint={t('messageHint')}
      />
      <ErrorText error={save.error} />
      {manage && (
        <div className="row">
          <button type="submit" className="primary" disabled={save.isPending}>
            {t('save')}
          </button>
          {saved ? (
            <ConfirmButton
              label={t('alwaysOpenButton')}
              question={t('removeQuestion')}
              confirmLabel={t('removeConfirm')}
              pending={save.isPending}
              onConfirm={() => save.mutate(null)}
            />
          ) : (
            <button type="button" onClick={() => setEditing(false)}>
              {t('cancel')}
            </button>
          )}
        </div>
      )}
    </form>
  );
}
