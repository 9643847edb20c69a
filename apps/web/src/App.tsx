import { useTranslation } from 'react-i18next';
import { Route, Routes } from 'react-router';
import { useDashboardLanguage } from './i18n/index.ts';
import { type PageRoute, PUBLIC_ROUTES, ROUTES } from './routes.tsx';
import { useSession } from './session.ts';
import { Layout } from './shell/Layout.tsx';
import { PageChrome } from './shell/PageChrome.tsx';
import { useApplyTheme } from './shell/theme.ts';
import { Loading } from './shell/ui.tsx';

/**
 * Routes (docs/dashboard.md "Pages, titles and breadcrumbs"): every page is an entry of the table
 * in routes.tsx; signed-out pages, then everything else inside the shell, which also shows the
 * breadcrumbs.
 */
export function App() {
  const session = useSession();
  // Signed out: the system's scheme; signed in: the user's preference (docs/dashboard.md).
  useApplyTheme(session.data?.preferences.theme ?? 'system');
  // The account's language, else the browser's (docs/languages.md "Dashboard").
  useDashboardLanguage(session.data?.language);
  // Re-render every page when the language changes (dates and numbers are plain functions).
  useTranslation();
  if (session.isPending) return <Loading />;
  if (!session.data) {
    return (
      <>
        <PageChrome table={PUBLIC_ROUTES} />
        <Routes>{PUBLIC_ROUTES.map(toRoute)}</Routes>
      </>
    );
  }
  return (
    <Routes>
      <Route element={<Layout user={session.data} />}>{ROUTES.map(toRoute)}</Route>
    </Routes>
  );
}

function toRoute({ path, page: Page }: PageRoute) {
  return path === '' ? (
    <Route key="index" index element={<Page />} />
  ) : (
    <Route key={path} path={path} element={<Page />} />
  );
}
