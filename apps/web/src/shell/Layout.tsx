import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, Outlet, useLocation, useMatch, useNavigate } from 'react-router';
import { canManage, type Data, patch, post, type Theme, type User } from '../api.ts';
import { NotificationsMenu } from '../features/notifications/NotificationsMenu.tsx';
import { ROUTES } from '../routes.tsx';
import { useSetUser, useWorkspaces } from '../session.ts';
import { AvailabilitySwitch } from './AvailabilitySwitch.tsx';
import { PageChrome } from './PageChrome.tsx';
import { SHORTCUTS, useShortcuts } from './shortcuts.tsx';
import { ErrorText } from './ui.tsx';

/** The switcher's "create another" entry (never a workspace id: those start with `ws_`). */
const NEW = 'new';

/** The app shell (docs/dashboard.md): header with workspace switcher, settings, help sheet. */
export function Layout({ user }: { user: User }) {
  const { t } = useTranslation();
  const ws = useMatch({ path: '/w/:ws', end: false })?.params.ws;
  const navigate = useNavigate();
  const setUser = useSetUser();
  const workspaces = useWorkspaces();
  const role = workspaces.data?.data.find((w) => w.id === ws)?.role;
  const help = useRef<HTMLDialogElement>(null);
  const menu = useRef<HTMLDetailsElement>(null);
  const { pathname } = useLocation();
  // The menu under the user's name closes when one of its links leads to another page.
  useEffect(() => {
    if (pathname && menu.current) menu.current.open = false;
  }, [pathname]);
  const qc = useQueryClient();
  const prefs = user.preferences;
  // Optimistic: the session's user carries the preferences; the theme follows it (App.tsx).
  const setPrefs = (p: Partial<User['preferences']>) =>
    qc.setQueryData<User | null>(
      ['session'],
      (old) => old && { ...old, preferences: { ...old.preferences, ...p } },
    );
  useShortcuts({ enabled: prefs.keyboardShortcuts, ws, openHelp: () => help.current?.showModal() });

  const savePrefs = useMutation({
    mutationFn: (p: Partial<User['preferences']>) => patch<Data<User>>('/api/account', { preferences: p }),
    onMutate: (p) => {
      const before = prefs;
      setPrefs(p);
      return before;
    },
    onSuccess: (res) => setUser(res.data),
    onError: (_err, _p, before) => before && setPrefs(before),
  });
  // What the menu's controls show, set in their own change handler: the optimistic update above
  // reaches the page a task later, and until then React would put a controlled input back to its
  // old value (a checkbox clicked off would show checked again for a moment).
  const [shown, setShown] = useState(prefs);
  useEffect(() => setShown(prefs), [prefs]);
  const changePrefs = (p: Partial<User['preferences']>) => {
    setShown((old) => ({ ...old, ...p }));
    savePrefs.mutate(p);
  };
  const signOut = useMutation({
    mutationFn: () => post('/api/auth/logout'),
    onSuccess: () => {
      setUser(null);
      navigate('/signin');
    },
  });

  return (
    <div className="shell">
      <header className="topbar">
        <Link to="/" className="brand">
          Parley
        </Link>
        {workspaces.data && workspaces.data.data.length > 0 && (
          <label className="switcher">
            <span className="sr-only">{t('header.workspace')}</span>
            <select
              value={ws ?? ''}
              onChange={(e) => navigate(e.target.value === NEW ? '/workspaces/new' : `/w/${e.target.value}`)}
            >
              {!ws && (
                <option value="" disabled>
                  {t('header.chooseWorkspace')}
                </option>
              )}
              {workspaces.data.data.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name}
                </option>
              ))}
              <option value={NEW}>{t('header.newWorkspace')}</option>
            </select>
          </label>
        )}
        {ws && (
          <nav aria-label={t('header.mainNav')} className="mainnav">
            <NavLink to={`/w/${ws}`} end>
              {t('pages.Overview')}
            </NavLink>
            <NavLink to={`/w/${ws}/inbox`}>{t('pages.Inbox')}</NavLink>
            <NavLink to={`/w/${ws}/assistants`}>{t('pages.Assistants')}</NavLink>
            <NavLink to={`/w/${ws}/contacts`}>{t('pages.Contacts')}</NavLink>
            <NavLink to={`/w/${ws}/canned-responses`}>{t('pages.Canned responses')}</NavLink>
            <NavLink to={`/w/${ws}/labels`}>{t('pages.Labels')}</NavLink>
            <NavLink to={`/w/${ws}/business-hours`}>{t('pages.Business hours')}</NavLink>
            <NavLink to={`/w/${ws}/sla-policies`}>{t('pages.SLA policies')}</NavLink>
            <NavLink to={`/w/${ws}/auto-assignment`}>{t('pages.Auto-assignment')}</NavLink>
            <NavLink to={`/w/${ws}/tickets`}>{t('pages.Tickets')}</NavLink>
            <NavLink to={`/w/${ws}/analytics`}>{t('pages.Analytics')}</NavLink>
            <NavLink to={`/w/${ws}/members`}>{t('pages.Members')}</NavLink>
            <NavLink to={`/w/${ws}/billing`}>{t('pages.Billing')}</NavLink>
            {canManage(role) && <NavLink to={`/w/${ws}/api-keys`}>{t('pages.API keys')}</NavLink>}
            {canManage(role) && <NavLink to={`/w/${ws}/webhooks`}>{t('pages.Webhooks')}</NavLink>}
            {role === 'owner' && <NavLink to={`/w/${ws}/sso`}>{t('pages.Single sign-on')}</NavLink>}
          </nav>
        )}
        {/* The bell and the user's menu stay together at the right end, wrapping as one. */}
        <div className="topbar-end">
          {ws && <AvailabilitySwitch ws={ws} />}
          <NotificationsMenu />
          <details className="menu" ref={menu}>
            <summary>{user.name}</summary>
            <div className="menu-body">
              <p className="muted">{user.email}</p>
              <Link to="/account">{t('menu.accountSettings')}</Link>
              <label>
                {t('menu.theme')}
                <select value={shown.theme} onChange={(e) => changePrefs({ theme: e.target.value as Theme })}>
                  <option value="system">{t('menu.themes.system')}</option>
                  <option value="light">{t('menu.themes.light')}</option>
                  <option value="dark">{t('menu.themes.dark')}</option>
                </select>
              </label>
              <label className="check">
                <input
                  type="checkbox"
                  checked={shown.keyboardShortcuts}
                  onChange={(e) => changePrefs({ keyboardShortcuts: e.target.checked })}
                />
                {t('menu.keyboardShortcuts')}
              </label>
              {shown.keyboardShortcuts && (
                <button type="button" onClick={() => help.current?.showModal()}>
                  {t('menu.shortcutsButton')}
                </button>
              )}
              <ErrorText error={savePrefs.error ?? signOut.error} />
              <button type="button" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
                {t('menu.signOut')}
              </button>
            </div>
          </details>
        </div>
      </header>
      <main className="content">
        <ErrorText error={workspaces.error} />
        <PageChrome table={ROUTES} crumbs />
        <Outlet />
      </main>
      <dialog ref={help} aria-labelledby="help-title" className="help">
        <h2 id="help-title">{t('help.title')}</h2>
        <dl>
          {SHORTCUTS.map((s) => (
            <div key={s.keys}>
              <dt>
                <kbd>{s.keys}</kbd>
              </dt>
              <dd>{t(s.what)}</dd>
            </div>
          ))}
        </dl>
        <p className="muted">{t('help.turnOff')}</p>
        <form method="dialog">
          <button type="submit">{t('help.closeButton')}</button>
        </form>
      </dialog>
    </div>
  );
}
