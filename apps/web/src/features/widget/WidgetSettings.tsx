import { DAILY_MESSAGE_QUOTA } from '@parley/contract/widget-quota';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { type Assistant, canManage, type Data, get, patch, type Workspace } from '../../api.ts';
import { useWorkspaces } from '../../session.ts';
import { ManagersOnlyPage } from '../../shell/ManagersOnlyPage.tsx';
import { Check, Choices, ErrorText } from '../../shell/ui.tsx';
import { AssistantNav } from '../assistants/AssistantNav.tsx';
import { ModelNote } from '../assistants/ModelNote.tsx';
import {
  type Draft,
  domainRefusals,
  labelOf,
  sixDigits,
  splitKeys,
  toBody,
  toDraft,
  type WidgetConfig,
} from './types.ts';
import { WidgetLanguages } from './WidgetLanguages.tsx';
import { WidgetPreview } from './WidgetPreview.tsx';
import { Snippet } from './WidgetSnippet.tsx';
import './widget.css';

/** The lead form's keys the widget itself names (docs/widget.md "Leads and feedback"). */
const STANDARD_FIELDS = ['name', 'email', 'phone'] as const;
const isStandardField = (f: string): f is (typeof STANDARD_FIELDS)[number] =>
  (STANDARD_FIELDS as readonly string[]).includes(f);

/** The website widget of an assistant (docs/widget.md "Embedding and configuration"). */
export function WidgetSettings() {
  const { t } = useTranslation('widget');
  const { ws = '', id = '' } = useParams();
  const workspace = useWorkspaces().data?.data.find((w) => w.id === ws);
  const role = workspace?.role;
  const manager = !role || canManage(role);
  const assistant = useQuery({
    queryKey: ['assistant', id],
    queryFn: () => get<Data<Assistant>>(`/api/assistants/${id}`),
  });
  const config = useQuery({
    queryKey: ['widget', id],
    queryFn: () => get<Data<WidgetConfig>>(`/api/assistants/${id}/widget`),
    enabled: manager,
  });
  const name = assistant.data?.data.name;
  const header = (
    <>
      <h1>{name ? t('titleOf', { name }) : t('title')}</h1>
      <AssistantNav ws={ws} id={id} />
    </>
  );
  return (
    <ManagersOnlyPage manager={manager} header={header} notAllowed={t('managersOnly')} query={config}>
      {({ data: saved }) => (
        <section>
          {header}
          <ErrorText error={assistant.error} />
          <WidgetForm
            key={id}
            ws={ws}
            saved={saved}
            assistant={assistant.data?.data}
            plan={workspace?.plan}
            workspace={workspace}
          />
        </section>
      )}
    </ManagersOnlyPage>
  );
}

function WidgetForm(props: {
  ws: string;
  saved: WidgetConfig;
  assistant?: Assistant;
  plan?: Workspace['plan'];
  workspace?: Workspace;
}) {
  const { ws, saved, assistant, plan, workspace } = props;
  const { t } = useTranslation('widget');
  const qc = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => toDraft(saved));
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const save = useMutation({
    mutationFn: (body: ReturnType<typeof toBody>) =>
      patch<Data<WidgetConfig>>(`/api/assistants/${saved.assistantId}/widget`, body),
    onSuccess: (res) => {
      qc.setQueryData(['widget', saved.assistantId], res);
      // The form continues from what was stored (colours lowercased, domains normalised).
      setDraft(toDraft(res.data));
    },
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(toBody(draft));
  };
  // A refused domain is said at its field, in words; the form's alert has the rest.
  const refused = domainRefusals(save.error);
  const unsaved = JSON.stringify(toBody(draft)) !== JSON.stringify(toBody(toDraft(saved)));
  const fields = splitKeys(draft.leadFormFields);
  const quota = plan === undefined ? undefined : DAILY_MESSAGE_QUOTA[plan];
  // docs/widget.md: a null welcome message falls back to the assistant's.
  const welcome = draft.welcomeMessage.trim() || assistant?.welcomeMessage || null;

  return (
    <>
      <div className="wg-layout">
        <form onSubmit={onSubmit} className="card stack wg-form" aria-labelledby="wg-form-title" noValidate>
          <h2 id="wg-form-title">{t('form.title')}</h2>
          <Check checked={draft.isEnabled} onChange={(on) => set('isEnabled', on)}>
            {t('form.enabled')}
          </Check>

          <fieldset className="wg-group">
            <legend>{t('form.look')}</legend>
            <div className="wg-colour">
              <label>
                {t('form.colour')}
                <input
                  type="color"
                  value={sixDigits(draft.primaryColor) ?? sixDigits(saved.primaryColor) ?? '#4f46e5'}
                  onChange={(e) => set('primaryColor', e.target.value)}
                />
              </label>
              <label>
                {t('form.colourHex')}
                <input
                  value={draft.primaryColor}
                  maxLength={7}
                  spellCheck={false}
                  placeholder="#4f46e5"
                  onChange={(e) => set('primaryColor', e.target.value)}
                />
              </label>
            </div>
            <fieldset className="tabs">
              <legend className="wg-sub">{t('form.corner')}</legend>
              <Choices
                name="position"
                value={draft.position}
                options={[
                  { value: 'bottom-right', label: t('form.bottomRight') },
                  { value: 'bottom-left', label: t('form.bottomLeft') },
                ]}
                onChange={(position) => set('position', position)}
              />
            </fieldset>
            <label>
              {t('form.welcome')}
              <textarea
                rows={3}
                maxLength={2000}
                value={draft.welcomeMessage}
                placeholder={assistant?.welcomeMessage ?? t('form.welcomePlaceholder')}
                aria-describedby="wg-welcome-hint"
                onChange={(e) => set('welcomeMessage', e.target.value)}
              />
            </label>
            <p id="wg-welcome-hint" className="muted wg-hint">
              {assistant?.welcomeMessage ? t('form.welcomeHint') : t('form.welcomeHintNone')}
            </p>
          </fieldset>

          <fieldset className="wg-group">
            <legend>{t('form.where')}</legend>
            <label>
              {t('form.domains')}
              <textarea
                rows={3}
                value={draft.allowedDomains}
                spellCheck={false}
                placeholder={'shop.example.com\n*.example.com'}
                aria-describedby={
                  refused.domains.length > 0 ? 'wg-domains-error wg-domains-hint' : 'wg-domains-hint'
                }
                aria-invalid={refused.domains.length > 0 || undefined}
                onChange={(e) => set('allowedDomains', e.target.value)}
              />
            </label>
            {refused.domains.length > 0 && (
              <ul id="wg-domains-error" className="error wg-field-error" role="alert">
                {refused.domains.map((text) => (
                  <li key={text}>{text}</li>
                ))}
              </ul>
            )}
            <p id="wg-domains-hint" className="muted wg-hint">
              {t('form.domainsHint')}
            </p>
          </fieldset>

          <fieldset className="wg-group">
            <legend>{t('form.leadForm')}</legend>
            <label className="check">
              <input
                type="checkbox"
                checked={draft.leadFormEnabled}
                onChange={(e) => set('leadFormEnabled', e.target.checked)}
              />
              {t('form.askDetails')}
            </label>
            <label>
              {t('form.fields')}
              <input
                value={draft.leadFormFields}
                spellCheck={false}
                placeholder="name, email, phone"
                aria-describedby="wg-fields-hint"
                onChange={(e) => set('leadFormFields', e.target.value)}
              />
            </label>
            <p id="wg-fields-hint" className="muted wg-hint">
              {t('form.fieldsHint')}
            </p>
            {fields.length > 0 && (
              <fieldset className="wg-required">
                <legend className="wg-sub">{t('form.required')}</legend>
                {fields.map((f) => (
                  <label key={f} className="check">
                    <input
                      type="checkbox"
                      checked={draft.leadFormRequiredFields.includes(f)}
                      onChange={(e) =>
                        set(
                          'leadFormRequiredFields',
                          e.target.checked
                            ? [...draft.leadFormRequiredFields, f]
                            : draft.leadFormRequiredFields.filter((x) => x !== f),
                        )
                      }
                    />
                    {isStandardField(f) ? t(`form.fieldNames.${f}`) : labelOf(f)}
                  </label>
                ))}
              </fieldset>
            )}
          </fieldset>

          <fieldset className="wg-group">
            <legend>{t('form.sessions')}</legend>
            <label>
              {t('form.timeout', { min: 1, max: 1440 })}
              <input
                type="number"
                min={1}
                max={1440}
                step={1}
                value={draft.sessionTimeoutMinutes}
                onChange={(e) => set('sessionTimeoutMinutes', e.target.value)}
              />
            </label>
            <p className="muted wg-hint">
              {quota === undefined
                ? t('form.quotaUnknown')
                : quota === null
                  ? t('form.quotaUnlimited')
                  : t('form.quota', { count: quota })}
            </p>
          </fieldset>

          <ErrorText error={refused.rest} />
          {refused.domains.length > 0 && !refused.rest && (
            <p className="error">{t('form.domainsNotSaved')}</p>
          )}
          <div className="row">
            <button type="submit" className="primary" disabled={save.isPending}>
              {save.isPending ? t('saving') : t('form.save')}
            </button>
            <span role="status" className="muted">
              {unsaved ? t('unsavedChanges') : save.isSuccess ? t('saved') : ''}
            </span>
          </div>
        </form>
        <WidgetPreview
          assistantName={assistant?.name ?? ''}
          color={draft.primaryColor}
          position={draft.position}
          welcome={welcome}
          leadForm={draft.leadFormEnabled ? { fields, required: draft.leadFormRequiredFields } : null}
          enabled={draft.isEnabled}
        >
          <ModelNote ws={ws} />
        </WidgetPreview>
      </div>
      <Snippet saved={saved} />
      <WidgetLanguages ws={ws} workspace={workspace} saved={saved} />
    </>
  );
}
