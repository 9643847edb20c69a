import type { User } from '../../api.ts';

/** docs/accounts.md "The user" (the server's type: packages/contract/src/api-types.ts). */
export type AccountUser = User;

/** `GET /api/auth/tokens`: personal access tokens (`pat_...`), never the token itself. */
export type { PersonalToken } from '@parley/contract/api-types';
