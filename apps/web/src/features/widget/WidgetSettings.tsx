import { DAILY_MESSAGE_QUOTA } from '@parley/contract/widget-quota';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useParams } from 'react-router';
import { type Assistant, canManage, type Data, get, patch, type Workspace } from '../../api.ts';
import { useWorkspaces } from '../../session.ts';
import { CopyButton } from '../../shell/CopyButton.tsx';
import { ErrorText, Loading } from '../../shell/ui.tsx';
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
import './widget.css';

/** The website widget of an assistant (docs/widget.md "Embedding and configuration"). */
export function WidgetSettings() {
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
      <h1>Website widget{name ? ` of ${name}` : ''}</h1>
      <AssistantNav ws={ws} id={id} />
    </>
  );
  if (!manager) {
    return (
      <section>
        {header}
        <p>
          Only owners and admins of this workspace can change the website widget or get its embed snippet.
        </p>
      </section>
    );
  }
  if (config.isPending) return <Loading />;
  if (config.error) {
    return (
      <section>
        {header}
        <ErrorText error={config.error} />
      </section>
    );
  }
  return (
    <section>
      {header}
      <ErrorText error={assistant.error} />
      <WidgetForm
        key={id}
        ws={ws}
        saved={config.data.data}
        assistant={assistant.data?.data}
        plan={workspace?.plan}
        workspace={workspace}
      />
    </section>
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
          <h2 id="wg-form-title">Settings</h2>
          <label className="check">
            <input
              type="checkbox"
              checked={draft.isEnabled}
              onChange={(e) => set('isEnabled', e.target.checked)}
            />
            Widget enabled
          </label>

          <fieldset className="wg-group">
            <legend>Look</legend>
            <div className="wg-colour">
              <label>
                Colour
                <input
                  type="color"
                  value={sixDigits(draft.primaryColor) ?? sixDigits(saved.primaryColor) ?? '#4f46e5'}
                  onChange={(e) => set('primaryColor', e.target.value)}
                />
              </label>
              <label>
                Colour (hex)
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
              <legend className="wg-sub">Corner</legend>
              <label className="check">
                <input
                  type="radio"
                  name="position"
                  checked={draft.position === 'bottom-right'}
                  onChange={() => set('position', 'bottom-right')}
                />
                Bottom right
              </label>
              <label className="check">
                <input
                  type="radio"
                  name="position"
                  checked={draft.position === 'bottom-left'}
                  onChange={() => set('position', 'bottom-left')}
                />
                Bottom left
              </label>
            </fieldset>
            <label>
              Welcome message
              <textarea
                rows={3}
                maxLength={2000}
                value={draft.welcomeMessage}
                placeholder={assistant?.welcomeMessage ?? 'Hi! How can I help?'}
                aria-describedby="wg-welcome-hint"
                onChange={(e) => set('welcomeMessage', e.target.value)}
              />
            </label>
            <p id="wg-welcome-hint" className="muted wg-hint">
              Empty: the assistant's own welcome message is used
              {assistant?.welcomeMessage ? '' : ' (it has none, so the chat opens empty)'}.
            </p>
          </fieldset>

          <fieldset className="wg-group">
            <legend>Where it may appear</legend>
            <label>
              Allowed domains
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
              One site per line: its hostname (shop.example.com) or its address (https://shop.example.com:8080
              keeps shop.example.com: the scheme and port do not matter). *.example.com allows its subdomains,
              * allows every site. An empty list allows no site at all.
            </p>
          </fieldset>

          <fieldset className="wg-group">
            <legend>Lead form</legend>
            <label className="check">
              <input
                type="checkbox"
                checked={draft.leadFormEnabled}
                onChange={(e) => set('leadFormEnabled', e.target.checked)}
              />
              Ask visitors for their details
            </label>
            <label>
              Fields
              <input
                value={draft.leadFormFields}
                spellCheck={false}
                placeholder="name, email, phone"
                aria-describedby="wg-fields-hint"
                onChange={(e) => set('leadFormFields', e.target.value)}
              />
            </label>
            <p id="wg-fields-hint" className="muted wg-hint">
              Comma-separated keys, up to 20: name, email, phone, or your own (a letter, then letters, digits
              or _), such as company.
            </p>
            {fields.length > 0 && (
              <fieldset className="wg-required">
                <legend className="wg-sub">Required</legend>
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
                    {labelOf(f)}
                  </label>
                ))}
              </fieldset>
            )}
          </fieldset>

          <fieldset className="wg-group">
            <legend>Sessions and limits</legend>
            <label>
              End a session after this many idle minutes (1 to 1,440)
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
                ? 'Visitors may send a daily number of messages that depends on the plan.'
                : quota === null
                  ? 'On your plan visitors may send any number of widget messages a day.'
                  : `On your plan visitors may send ${quota.toLocaleString('en')} widget messages a day to this assistant (UTC day), and each answer uses credits.`}
            </p>
          </fieldset>

          <ErrorText error={refused.rest} />
          {refused.domains.length > 0 && !refused.rest && (
            <p className="error">Not saved: see the allowed domains above.</p>
          )}
          <div className="row">
            <button type="submit" className="primary" disabled={save.isPending}>
              {save.isPending ? 'Saving…' : 'Save widget settings'}
            </button>
            <span role="status" className="muted">
              {unsaved ? 'Unsaved changes' : save.isSuccess ? 'Saved' : ''}
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

/**
 * The tag to paste into the site's pages, as the API gives it (docs/widget.md "Embedding and configuration").
 */
function Snippet({ saved }: { saved: WidgetConfig }) {
  return (
    <section className="card stack wg-snippet" aria-labelledby="wg-snippet-title">
      <h2 id="wg-snippet-title">Embed on your site</h2>
      <p>
        Paste this tag into the pages of your site, before <code>&lt;/body&gt;</code>. The widget shows only
        while it is enabled, and only on the allowed domains.
      </p>
      <pre className="wg-code">
        <code>{saved.embedSnippet}</code>
      </pre>
      <div>
        <CopyButton text={saved.embedSnippet} label="Copy snippet" />
      </div>
      {(!saved.isEnabled || saved.allowedDomains.length === 0) && (
        <p className="warn">
          {!saved.isEnabled
            ? 'The widget is not enabled yet: pages with this tag show nothing.'
            : 'No domain is allowed yet: add your site’s hostname above, or no page can show the widget.'}
        </p>
      )}
    </section>
  );
}
