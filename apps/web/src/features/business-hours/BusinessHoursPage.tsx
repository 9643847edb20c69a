import { MAX_OUTSIDE_HOURS_MESSAGE } from '@parley/contract/business-hours';
import { type UseMutationResult, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
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
      <h1>Business hours</h1>
      <p className="muted">
        When a person of your team answers. Outside these hours the AI answers as always; a customer handed to
        a person is told when someone will be back. Without business hours the team is always open.
      </p>
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
      {save.isSuccess && !save.isPending && (
        <p role="status">
          {save.data.data ? 'Business hours saved.' : 'Always open: business hours removed.'}
        </p>
      )}
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
  const [draft, setDraft] = useState<Draft>(saved ? draftOf(saved) : defaultDraft(readerTimeZone()));
  const [editing, setEditing] = useState(saved !== null);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const errors = errorsOf(save.error);
  const zones = timeZones();
  if (!editing) {
    return (
      <div className="card stack">
        <p>
          <strong>Always open.</strong> No business hours are set.
        </p>
        {manage && (
          <div className="row">
            <button type="button" className="primary" onClick={() => setEditing(true)}>
              Set business hours
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
      aria-label="Business hours"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate({ ...draft, outsideHoursMessage: draft.outsideHoursMessage.trim() });
      }}
    >
      {!saved && <p className="muted">Not saved yet: the team is always open until you save.</p>}
      <Field form="bh" name="timezone" label="Time zone" errors={errors}>
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
        label="Message outside business hours"
        errors={errors}
        rows={3}
        maxLength={MAX_OUTSIDE_HOURS_MESSAGE}
        value={draft.outsideHoursMessage}
        onChange={(v) => set('outsideHoursMessage', v)}
        hint="Sent when a customer is handed to a person outside these hours, followed by when your team is back, e.g. “We're back Monday at 09:00 (Europe/Paris).”"
      />
      <ErrorText error={save.error} />
      {manage && (
        <div className="row">
          <button type="submit" className="primary" disabled={save.isPending}>
            Save business hours
          </button>
          {saved ? (
            <ConfirmButton
              label="Always open"
              question="Remove the business hours? The team is then always open."
              confirmLabel="Remove business hours"
              pending={save.isPending}
              onConfirm={() => save.mutate(null)}
            />
          ) : (
            <button type="button" onClick={() => setEditing(false)}>
              Cancel
            </button>
          )}
        </div>
      )}
    </form>
  );
}
