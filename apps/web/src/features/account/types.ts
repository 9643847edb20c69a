import type { User } from '../../api.ts';

/** docs/accounts.md "The user": the session's user carries these too. */
export type AccountUser = User & { avatarUrl: string | null; hasPassword: boolean; createdAt: string };

/** `GET /api/auth/tokens`: personal access tokens (`pat_...`), never the token itself. */
export type PersonalToken = {
  id: string;
  name: string;
  last4: string;
  createdAt: string;
  lastUsedAt: string | null;
};
