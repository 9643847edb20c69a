import type { Language } from '@parley/contract/languages';
import { LANGUAGES } from '@parley/contract/languages';
import type { WidgetStringKey, WidgetStrings } from '@parley/contract/widget-strings/keys';
import { WIDGET_STRING_KEYS } from '@parley/contract/widget-strings/keys';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, type Data, patch, type Workspace } from '../../api.ts';
import { languageName } from '../../i18n/format.ts';
import { i18n } from '../../i18n/index.ts';
import { ErrorText } from '../../shell/ui.tsx';
import type { WidgetConfig } from './types.ts';

/**
 * The widget's languages (docs/languages.md "Widget"): the workspace's default language (the
 * widget's when the visitor's is not supported) and the owner's own texts per language, shown
 * over the built-in text they replace. The catalogs load only when this card is shown.
 */
type Overrides = Partial<Record<Language, Partial<Record<WidgetStringKey, string>>>>;

/** "Spanish (es)", "español (es)": the name in the dashboard's language, and the tag the API takes. */
const languageLabel = (language: string) => `${languageName(language, i18n.language)} (${language})`;

const loadCatalogs = () =>
  import('@parley/contract/widget-strings/index').then(
    (m) => m.WIDGET_CATALOGS as Record<Language, WidgetStrings>,
  );

export function WidgetLanguages(props: { ws: string; workspace?: Workspace; saved: WidgetConfig }) {
  const { ws, workspace, saved } = props;
  const { t } = useTranslation('widget');
  return (
    <section className="card stack wg-languages" aria-labelledby="wg-languages-title">
      <h2 id="wg-languages-title">{t('languages.title')}</h2>
      <p>{t('languages.intro', { n: LANGUAGES.length })}</p>
      {workspace && <DefaultLanguage ws={ws} workspace={workspace} />}
      <StringOverrides saved={saved} />
    </section>
  );
}

function DefaultLanguage({ ws, workspace }: { ws: string; workspace: Workspace }) {
  const { t } = useTranslation('widget');
  const qc = useQueryClient();
  const [value, setValue] = useState<Language>(workspace.defaultLanguage);
  const save = useMutation({
    mutationFn: (defaultLanguage: Language) =>
      patch<Data<Workspace>>(`/api/workspaces/${ws}`, { defaultLanguage }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['workspaces'] }),
  });
  const changed = value !== workspace.defaultLanguage;
  return (
    <form
      className="row wg-default-language"
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        save.mutate(value);
      }}
    >
      <label>
        {t('languages.defaultLanguage')}
        <select value={value} onChange={(e) => setValue(e.target.value as Language)}>
          {LANGUAGES.map((l) => (
            <option key={l} value={l}>
              {languageLabel(l)}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={save.isPending || !changed}>
        {save.isPending ? t('saving') : t('languages.saveDefault')}
      </button>
      <span role="status" className="muted">
        {changed ? t('unsavedChange') : save.isSuccess ? t('saved') : ''}
      </span>
      <ErrorText error={save.error} />
    </form>
  );
}

/** The 400's messages for `strings.<language>.<key>`, by key, for the language being edited. */
function fieldErrors(error: unknown, language: Language): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const out: Record<string, string> = {};
  for (const [path, text] of Object.entries(error.details ?? {})) {
    const [head, lang, key] = path.split('.');
    if (head === 'strings' && lang === language && key) out[key] = String(text);
  }
  return out;
}

/** Without empty texts or languages: what the API stores. */
function cleaned(draft: Overrides): Overrides {
  const out: Overrides = {};
  for (const [language, texts] of Object.entries(draft) as Array<[Language, Record<string, string>]>) {
    const kept = Object.fromEntries(Object.entries(texts ?? {}).filter(([, text]) => text.trim()));
    if (Object.keys(kept).length > 0) out[language] = kept;
  }
  return out;
}

function StringOverrides({ saved }: { saved: WidgetConfig }) {
  const { t } = useTranslation('widget');
  const qc = useQueryClient();
  const catalogs = useQuery({ queryKey: ['widget-catalogs'], queryFn: loadCatalogs, staleTime: Infinity });
  const [language, setLanguage] = useState<Language>('en');
  const [draft, setDraft] = useState<Overrides>(() => saved.strings as Overrides);
  const save = useMutation({
    mutationFn: (strings: Overrides) =>
      patch<Data<WidgetConfig>>(`/api/assistants/${saved.assistantId}/widget`, { strings }),
    onSuccess: (res) => {
      qc.setQueryData(['widget', saved.assistantId], res);
      setDraft(res.data.strings as Overrides);
    },
  });
  const errors = fieldErrors(save.error, language);
  const unsaved = JSON.stringify(cleaned(draft)) !== JSON.stringify(cleaned(saved.strings as Overrides));
  const own = draft[language] ?? {};
  const count = (l: Language) => Object.values(draft[l] ?? {}).filter((text) => text?.trim()).length;
  const set = (key: WidgetStringKey, text: string) =>
    setDraft((d) => ({ ...d, [language]: { ...d[language], [key]: text } }));

  return (
    <form
      className="stack wg-strings"
      aria-labelledby="wg-strings-title"
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        save.mutate(cleaned(draft));
      }}
    >
      <h3 id="wg-strings-title">{t('languages.ownTitle')}</h3>
      <p className="muted wg-hint">{t('languages.ownHint')}</p>
      <label>
        {t('languages.language')}
        <select value={language} onChange={(e) => setLanguage(e.target.value as Language)}>
          {LANGUAGES.map((l) => (
            <option key={l} value={l}>
              {count(l)
                ? t('languages.changed', { language: languageLabel(l), count: count(l) })
                : languageLabel(l)}
            </option>
          ))}
        </select>
      </label>
      {catalogs.isPending && <p className="muted">{t('languages.loading')}</p>}
      <ErrorText error={catalogs.error} />
      {catalogs.data && (
        <div className="wg-string-list" lang={language} dir={language === 'ar' ? 'rtl' : 'ltr'}>
          {WIDGET_STRING_KEYS.map((key) => {
            const id = `wg-string-${key}`;
            const error = errors[key];
            return (
              <div key={key} className="wg-string">
                <label htmlFor={id} lang="en" dir="ltr">
                  <code>{key}</code>
                </label>
                <input
                  id={id}
                  value={own[key] ?? ''}
                  maxLength={500}
                  placeholder={catalogs.data[language][key]}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `${id}-e` : undefined}
                  onChange={(e) => set(key, e.target.value)}
                />
                {error && (
                  <span id={`${id}-e`} className="error" lang="en" dir="ltr">
                    {error}
                  </span>
                )}
              </div>
            );
          })}
        </div>
      )}
      {/* Refusals of this language's texts are said at their fields; anything else here. */}
      {Object.keys(errors).length > 0 ? (
        <p className="error">{t('languages.notSaved')}</p>
      ) : (
        <ErrorText error={save.error} />
      )}
      <div className="row">
        <button type="submit" className="primary" disabled={save.isPending}>
          {save.isPending ? t('saving') : t('languages.save')}
        </button>
        <span role="status" className="muted">
          {unsaved ? t('unsavedChanges') : save.isSuccess ? t('saved') : ''}
        </span>
      </div>
    </form>
  );
}
