import { LANGUAGES, type Language } from '@parley/contract/languages';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Data, patch, type Theme, type User } from '../../api.ts';
import { languageName } from '../../i18n/format.ts';
import { browserLanguage } from '../../i18n/locale.ts';
import { useSession, useSetUser } from '../../session.ts';
import { ErrorText, Loading } from '../../shell/ui.tsx';
import { DeleteAccount, ExportData } from './DangerZone.tsx';
import { PasswordForm } from './PasswordForm.tsx';
import { Tokens } from './Tokens.tsx';
import type { AccountUser } from './types.ts';
import './account.css';
import { SaveRow } from './SaveRow.tsx';

/**
 * `/account` (docs/accounts.md): profile, password, preferences, personal access tokens, data
 * export and deletion. Every save puts the answer into the ['session'] query, so the menu's name
 * and the theme change at once.
 */
export function AccountPage() {
  const { t } = useTranslation('account');
  const session = useSession();
  if (!session.data) return <Loading />;
  const user = session.data as AccountUser;
  return (
    <section className="account">
      <h1>{t('title')}</h1>
      <div className="grid">
        <Profile user={user} />
        <Preferences user={user} />
        <PasswordForm hasPassword={user.hasPassword !== false} />
        <Tokens />
        <ExportData email={user.email} />
        <DeleteAccount />
      </div>
    </section>
  );
}

function useSaveAccount() {
  const setUser = useSetUser();
  return useMutation({
    mutationFn: (body: Record<string, unknown>) => patch<Data<User>>('/api/account', body),
    onSuccess: (res) => setUser(res.data),
  });
}

function Profile({ user }: { user: AccountUser }) {
  const { t } = useTranslation('account');
  const save = useSaveAccount();
  const [name, setName] = useState(user.name);
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    save.mutate({ name: name.trim() });
  };
  return (
    <form onSubmit={onSubmit} className="card stack" aria-labelledby="profile-title">
      <h2 id="profile-title">{t('profile.title')}</h2>
      <label>
        {t('profile.name')}
        <input
          name="name"
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            save.reset();
          }}
          required
          maxLength={100}
          autoComplete="name"
        />
      </label>
      <label>
        {t('profile.email')}
        <input value={user.email} readOnly aria-describedby="email-note" />
      </label>
      <p id="email-note" className="muted">
        {t('profile.emailNote')}
      </p>
      <ErrorText error={save.error} />
      <SaveRow label={t('profile.save')} busy={save.isPending} done={save.isSuccess && t('profile.saved')} />
    </form>
  );
}

const THEMES: Theme[] = ['light', 'dark', 'system'];
/** The picker's "my browser's language": the account's `language` null (docs/languages.md "Dashboard"). */
const BROWSER = '';

function Preferences({ user }: { user: AccountUser }) {
  const { t } = useTranslation('account');
  const prefs = user.preferences;
  const save = useSaveAccount();
  const [language, setLanguage] = useState<Language | typeof BROWSER>(user.language ?? BROWSER);
  useEffect(() => setLanguage(user.language ?? BROWSER), [user.language]);
  const [theme, setTheme] = useState<Theme>(prefs.theme);
  const [shortcuts, setShortcuts] = useState(prefs.keyboardShortcuts);
  // Follow changes made elsewhere (the menu under your name saves them too).
  useEffect(() => {
    setTheme(prefs.theme);
    setShortcuts(prefs.keyboardShortcuts);
  }, [prefs.theme, prefs.keyboardShortcuts]);
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    save.mutate({ preferences: { theme, keyboardShortcuts: shortcuts }, language: language || null });
  };
  return (
    <form onSubmit={onSubmit} className="card stack" aria-labelledby="prefs-title">
      <h2 id="prefs-title">{t('preferences.title')}</h2>
      <label>
        {t('preferences.language')}
        <select
          name="language"
          value={language}
          aria-describedby="language-note"
          onChange={(e) => {
            setLanguage(e.target.value as Language | typeof BROWSER);
            save.reset();
          }}
        >
          <option value={BROWSER}>
            {t('preferences.browserLanguage', { language: languageName(browserLanguage()) })}
          </option>
          {LANGUAGES.map((l) => (
            <option key={l} value={l} lang={l}>
              {languageName(l)}
            </option>
          ))}
        </select>
      </label>
      <p id="language-note" className="muted">
        {t('preferences.languageNote')}
      </p>
      <fieldset className="choices">
        <legend>{t('preferences.theme')}</legend>
        {THEMES.map((id) => (
          <label key={id} className="check">
            <input
              type="radio"
              name="theme"
              value={id}
              checked={theme === id}
              onChange={() => {
                setTheme(id);
                save.reset();
              }}
            />
            {t(`preferences.themes.${id}`)}
          </label>
        ))}
      </fieldset>
      <label className="check">
        <input
          type="checkbox"
          checked={shortcuts}
          onChange={(e) => {
            setShortcuts(e.target.checked);
            save.reset();
          }}
        />
        {t('preferences.shortcuts')}
      </label>
      <ErrorText error={save.error} />
      <SaveRow
        label={t('preferences.save')}
        busy={save.isPending}
        done={save.isSuccess && t('preferences.saved')}
      />
    </form>
  );
}
