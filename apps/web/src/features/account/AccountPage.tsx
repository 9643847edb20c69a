import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { type Data, patch, type Theme, type User } from '../../api.ts';
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
  const session = useSession();
  if (!session.data) return <Loading />;
  const user = session.data as AccountUser;
  return (
    <section className="account">
      <h1>Account settings</h1>
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
  const save = useSaveAccount();
  const [name, setName] = useState(user.name);
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    save.mutate({ name: name.trim() });
  };
  return (
    <form onSubmit={onSubmit} className="card stack" aria-labelledby="profile-title">
      <h2 id="profile-title">Profile</h2>
      <label>
        Name
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
        Email
        <input value={user.email} readOnly aria-describedby="email-note" />
      </label>
      <p id="email-note" className="muted">
        You sign in with this address. To change it, contact support.
      </p>
      <ErrorText error={save.error} />
      <SaveRow label="Save profile" busy={save.isPending} done={save.isSuccess && 'Profile saved.'} />
    </form>
  );
}

const THEMES: Array<{ id: Theme; label: string }> = [
  { id: 'light', label: 'Light' },
  { id: 'dark', label: 'Dark' },
  { id: 'system', label: 'Same as my device' },
];

function Preferences({ user }: { user: AccountUser }) {
  const prefs = user.preferences;
  const save = useSaveAccount();
  const [theme, setTheme] = useState<Theme>(prefs.theme);
  const [shortcuts, setShortcuts] = useState(prefs.keyboardShortcuts);
  // Follow changes made elsewhere (the menu under your name saves them too).
  useEffect(() => {
    setTheme(prefs.theme);
    setShortcuts(prefs.keyboardShortcuts);
  }, [prefs.theme, prefs.keyboardShortcuts]);
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    save.mutate({ preferences: { theme, keyboardShortcuts: shortcuts } });
  };
  return (
    <form onSubmit={onSubmit} className="card stack" aria-labelledby="prefs-title">
      <h2 id="prefs-title">Preferences</h2>
      <fieldset className="choices">
        <legend>Theme</legend>
        {THEMES.map((t) => (
          <label key={t.id} className="check">
            <input
              type="radio"
              name="theme"
              value={t.id}
              checked={theme === t.id}
              onChange={() => {
                setTheme(t.id);
                save.reset();
              }}
            />
            {t.label}
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
        Keyboard shortcuts (press ? for the list)
      </label>
      <ErrorText error={save.error} />
      <SaveRow label="Save preferences" busy={save.isPending} done={save.isSuccess && 'Preferences saved.'} />
    </form>
  );
}
