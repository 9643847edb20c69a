import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { generatePath, Link, matchRoutes, type Params, useLocation } from 'react-router';
import { NAMES, type PageRoute, trailOf } from '../routes.tsx';

/**
 * The tab's title and the breadcrumbs of the page at the current address, both from the route
 * table (routes.tsx; docs/dashboard.md "Pages, titles and breadcrumbs"). Keyed by the matched
 * route, so each page's name hooks run in a fixed order.
 */
export function PageChrome({ table, crumbs = false }: { table: PageRoute[]; crumbs?: boolean }) {
  const location = useLocation();
  const match = matchRoutes(
    table.map((r) => ({ path: `/${r.path}` })),
    location,
  )?.[0];
  const route = table.find((r) => `/${r.path}` === match?.route.path);
  if (!route || !match) return null;
  return <Chrome key={route.path} route={route} table={table} params={match.params} crumbs={crumbs} />;
}

function Chrome(props: { route: PageRoute; table: PageRoute[]; params: Params; crumbs: boolean }) {
  const { route, table, params } = props;
  const { t } = useTranslation();
  const trail = trailOf(route, table);
  // One hook per named entry on the way; the list is fixed for this route (the parent keys by it).
  const names = trail.map((r) => (r.name ? NAMES[r.name](params) : undefined));
  const title = [t(`pages.${route.title}`), ...names.filter(Boolean).reverse(), 'Parley'].join(' · ');
  useEffect(() => {
    document.title = title;
  }, [title]);
  // Breadcrumbs inside a workspace; the pages outside it are one level deep.
  if (!props.crumbs || !route.path.startsWith('w/:ws')) return null;
  return (
    <nav aria-label={t('header.breadcrumb')} className="crumbs">
      <ol>
        {trail.map((r, i) => {
          const label = names[i] ?? t(`pages.${r.title}`);
          return (
            <li key={r.path}>
              {r === route ? (
                <span aria-current="page">{label}</span>
              ) : (
                <Link to={generatePath(`/${r.path}`, params)}>{label}</Link>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
