import type { User } from '../../api.ts';

/** docs/accounts.md "The user" (the server's type: apps/server/src/api-types.ts). */
export type AccountUser = User;

/** `GET /api/auth/tokens`: personal access tokens (`pat_...`), never the token itself. */
export type { PersonalToken } from '@parley/server/src/api-types.ts';
