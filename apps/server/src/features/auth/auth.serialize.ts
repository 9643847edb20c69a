import type { userSchema } from '@parley/contract/auth';
import type { z } from 'zod';
import { iso } from '../../http/envelope.ts';
import type { UserRow } from './auth.repo.ts';

/** A user row as the API shows it (packages/contract/src/auth.ts `userSchema`). */
export const toUser = (u: UserRow): z.infer<typeof userSchema> => ({
  id: u.id,
  name: u.name,
  email: u.email,
  avatarUrl: u.avatarUrl,
  hasPassword: u.passwordHash !== null,
  preferences: u.preferences,
  language: u.language,
  createdAt: iso(u.createdAt),
});
