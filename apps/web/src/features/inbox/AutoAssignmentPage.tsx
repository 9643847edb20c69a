import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useParams } from 'react-router';
import { api, canManage, type Data } from '../../api.ts';
import { useWorkspaces } from '../../session.ts';
import { ErrorText, Loading } from '../../shell/ui.tsx';
import { Field } from '../steering/Field.tsx';
import { type FieldErrors, fieldErrorsOf, formError } from '../steering/types.ts';
import { CsatSettings } from './CsatSettings.tsx';
import { type InboxSettings, inboxSettingsPath, MAX_OPEN, useInboxSettings } from './settings.ts';
import '../steering/steering.css';
import './inbox.css';

const FIELDS = ['autoAssign', 'maxOpenPerAgent'] as const;

/** Who auto-assignment gives conversations to, in one sentence (docs/inbox.md "Auto-assignment"). */
const WHO =
  'When on, a conversation handed to a person goes to a teammate who is online and has the inbox open, the one with the fewest, up to the maximum; when nobody can take it, it waits until someone can.';

/**
 * The workspace's inbox settings, i.e. auto-assignment (docs/inbox.md "Auto-assignment";
 * docs/dashboard.md "Pages"): every member reads them; owners and admins turn it on or off and set
 * the most conversations in handoff one person is given.
 */
export function AutoAssignmentPage() {
  const { ws = '' } = useParams();
  const role = useWorkspaces().data?.data.find((w) => w.id === ws)?.role;
  const settings = useInboxSettings(ws);
  const s = settings.data?.data;
  return (
    <section className="inbox-settings">
      <h1>Auto-assignment</h1>
      <p className="muted">How conversations handed to a person find the teammate who answers them.</p>
      {settings.isPending && <Loading />}
      <ErrorText error={settings.error} />
      {s &&
        role &&
        (canManage(role) ? (
          <SettingsForm ws={ws} settings={s} />
        ) : (
          <div className="card stack">
            <dl className="settings-read" aria-label="Inbox settings">
              <div>
                <dt>Auto-assignment</dt>
                <dd>{s.autoAssign ? 'On' : 'Off'}</dd>
              </div>
              <div>
                <dt>Most open conversations per person</dt>
                <dd>{s.maxOpenPerAgent}</dd>
              </div>
            </dl>
            <p className="muted">{WHO}</p>
            <p className="muted">Owners and admins change these settings.</p>
          </div>
        ))}
      {s && role && <CsatSettings ws={ws} csat={s.csat} canEdit={canManage(role)} />}
    </section>
  );
}

const BOUNDS = `Enter a whole number from ${MAX_OPEN.min} to ${MAX_OPEN.max}.`;

/** The server's refusal of the maximum, led by what it accepts (its own words follow). */
const withBounds = (errors: FieldErrors): FieldErrors =>
  errors.maxOpenPerAgent ? { ...errors, maxOpenPerAgent: `${BOUNDS} (${errors.maxOpenPerAgent})` } : errors;

function SettingsForm({ ws, settings }: { ws: string; settings: InboxSettings }) {
  const qc = useQueryClient();
  const [autoAssign, setAutoAssign] = useState(settings.autoAssign);
  const [max, setMax] = useState(String(settings.maxOpenPerAgent));
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useMutation({
    mutationFn: (body: { autoAssign: boolean; maxOpenPerAgent: number }) =>
      api<Data<InboxSettings>>('PUT', inboxSettingsPath(ws), body),
    onSuccess: (res) => qc.setQueryData(['inbox-settings', ws], res),
    onError: (err) => setErrors(withBounds(fieldErrorsOf(err, FIELDS))),
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setErrors({});
    save.reset();
    // An empty box or words are not a number the server could name: said here, in its words.
    if (!/^\s*-?\d+(\.\d+)?\s*$/.test(max)) {
      setErrors({ maxOpenPerAgent: BOUNDS });
      return;
    }
    save.mutate({ autoAssign, maxOpenPerAgent: Number(max) });
  };
  return (
    <form className="card stack" aria-label="Inbox settings" noValidate onSubmit={onSubmit}>
      <div className="st-field">
        <label className="check">
          <input
            type="checkbox"
            role="switch"
            checked={autoAssign}
            aria-checked={autoAssign}
            aria-describedby="inbox-who"
            aria-invalid={errors.autoAssign ? true : undefined}
            onChange={(e) => {
              setAutoAssign(e.target.checked);
              setErrors((x) => ({ ...x, autoAssign: '' }));
            }}
          />
          Assign conversations automatically
        </label>
        <p id="inbox-who" className="muted st-hint">
          {WHO}
        </p>
        {errors.autoAssign && <p className="error st-hint">{errors.autoAssign}</p>}
      </div>
      <Field
        form="inbox-settings"
        name="maxOpenPerAgent"
        label="Most open conversations per person"
        errors={errors}
        hint={`${MAX_OPEN.min} to ${MAX_OPEN.max}: conversations handed to a person and assigned to them. Someone at the maximum is given no more until one closes or goes back to the AI.`}
      >
        {(f) => (
          <input
            {...f}
            type="number"
            inputMode="numeric"
            min={MAX_OPEN.min}
            max={MAX_OPEN.max}
            step={1}
            value={max}
            className="settings-number"
            onChange={(e) => {
              setMax(e.target.value);
              setErrors((x) => ({ ...x, maxOpenPerAgent: '' }));
            }}
          />
        )}
      </Field>
      <ErrorText error={save.error && formError(save.error, errors)} />
      <div className="row">
        <button type="submit" className="primary" disabled={save.isPending}>
          Save settings
        </button>
        <p role="status" className="muted">
          {save.isSuccess ? 'Settings saved.' : ''}
        </p>
      </div>
    </form>
  );
}
