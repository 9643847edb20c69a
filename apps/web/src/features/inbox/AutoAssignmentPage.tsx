import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { api, canManage, type Data } from '../../api.ts';
import { formatNumber } from '../../i18n/format.ts';
import { i18n } from '../../i18n/index.ts';
import { useWorkspaces } from '../../session.ts';
import { ErrorText, Loading } from '../../shell/ui.tsx';
import { Field } from '../steering/Field.tsx';
import { type FieldErrors, fieldErrorsOf, formError } from '../steering/types.ts';
import { CsatSettings } from './CsatSettings.tsx';
import { type InboxSettings, inboxSettingsPath, MAX_OPEN, useInboxSettings } from './settings.ts';
import '../steering/steering.css';
import './inbox.css';

const FIELDS = ['autoAssign', 'maxOpenPerAgent'] as const;

/**
 * The workspace's inbox settings, i.e. auto-assignment (docs/inbox.md "Auto-assignment";
 * docs/dashboard.md "Pages"): every member reads them; owners and admins turn it on or off and set
 * the most conversations in handoff one person is given.
 */
export function AutoAssignmentPage() {
  const { t } = useTranslation('inbox');
  const { ws = '' } = useParams();
  const role = useWorkspaces().data?.data.find((w) => w.id === ws)?.role;
  const settings = useInboxSettings(ws);
  const s = settings.data?.data;
  return (
    <section className="inbox-settings">
      <h1>{t('autoAssign.title')}</h1>
      <p className="muted">{t('autoAssign.intro')}</p>
      {settings.isPending && <Loading />}
      <ErrorText error={settings.error} />
      {s &&
        role &&
        (canManage(role) ? (
          <SettingsForm ws={ws} settings={s} />
        ) : (
          <div className="card stack">
            <dl className="settings-read" aria-label={t('autoAssign.settings')}>
              <div>
                <dt>{t('autoAssign.label')}</dt>
                <dd>{s.autoAssign ? t('autoAssign.on') : t('autoAssign.off')}</dd>
              </div>
              <div>
                <dt>{t('autoAssign.most')}</dt>
                <dd>{formatNumber(s.maxOpenPerAgent)}</dd>
              </div>
            </dl>
            <p className="muted">{t('autoAssign.who')}</p>
            <p className="muted">{t('autoAssign.readOnly')}</p>
          </div>
        ))}
      {s && role && <CsatSettings ws={ws} csat={s.csat} canEdit={canManage(role)} />}
    </section>
  );
}

/** The server's refusal of the maximum, led by what it accepts (its own words follow). */
const withBounds = (errors: FieldErrors): FieldErrors =>
  errors.maxOpenPerAgent
    ? {
        ...errors,
        maxOpenPerAgent: i18n.t('inbox:autoAssign.refused', { ...MAX_OPEN, reason: errors.maxOpenPerAgent }),
      }
    : errors;

function SettingsForm({ ws, settings }: { ws: string; settings: InboxSettings }) {
  const { t } = useTranslation('inbox');
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
      setErrors({ maxOpenPerAgent: t('autoAssign.bounds', MAX_OPEN) });
      return;
    }
    save.mutate({ autoAssign, maxOpenPerAgent: Number(max) });
  };
  return (
    <form className="card stack" aria-label={t('autoAssign.settings')} noValidate onSubmit={onSubmit}>
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
          {t('autoAssign.enable')}
        </label>
        {/* Who auto-assignment gives conversations to, in one sentence (docs/inbox.md "Auto-assignment"). */}
        <p id="inbox-who" className="muted st-hint">
          {t('autoAssign.who')}
        </p>
        {errors.autoAssign && <p className="error st-hint">{errors.autoAssign}</p>}
      </div>
      <Field
        form="inbox-settings"
        name="maxOpenPerAgent"
        label={t('autoAssign.most')}
        errors={errors}
        hint={t('autoAssign.mostHint', MAX_OPEN)}
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
          {t('autoAssign.save')}
        </button>
        <p role="status" className="muted">
          {save.isSuccess ? t('autoAssign.saved') : ''}
        </p>
      </div>
    </form>
  );
}
