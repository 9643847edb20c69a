import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, type Data, get, type OffsetPage, type User, type Workspace } from './api.ts';

/**
 * Whether the page came without a session cookie: the server writes this into index.html
 * (apps/server/src/features/web/web-files.ts), since the cookie itself is HttpOnly. Used once:
 * the first session check then answers "signed out" without a request that could only be a 401
 * (which Chromium logs as a console error); every later check asks the server.
 */
let noCookieAtLoad =
  document.querySelector<HTMLMetaElement>('meta[name="parley-session-cookie"]')?.content === 'absent';

/** The signed-in user, or null when the session cookie is missing or expired (a 401). */
export function useSession() {
  return useQuery({
    queryKey: ['session'],
    queryFn: async () => {
      if (noCookieAtLoad) {
        noCookieAtLoad = false;
        return null;
      }
      try {
        return (await get<Data<{ user: User }>>('/api/auth/session')).data.user;
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) return null;
        throw err;
      }
    },
    staleTime: 60_000,
  });
}

export function useSetUser() {
  const qc = useQueryClient();
  return (user: User | null) => {
    qc.setQueryData(['session'], user);
    // Signed out: forget everything of the previous user but the (now empty) session itself.
    if (!user) qc.removeQueries({ predicate: (q) => q.queryKey[0] !== 'session' });
  };
}

/** The first 100 workspaces the user belongs to (the switcher; more than that is rare). */
export function useWorkspaces(enabled = true) {
  return useQuery({
    queryKey: ['workspaces'],
    queryFn: () => get<OffsetPage<Workspace>>('/api/workspaces?limit=100'),
    enabled,
  });
}
