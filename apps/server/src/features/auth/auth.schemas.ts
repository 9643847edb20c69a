import { z } from 'zod';
import { iso } from '../../http/envelope.ts';
import type { UserRow } from './auth.repo.ts';

export const email = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email({ message: 'Must be a valid email address' }))
  .transform((e) => e.toLowerCase());
export const password = z.string().min(10, 'Must be at least 10 characters').max(256);

export const signupBody = z.strictObject({ email, password, name: z.string().trim().min(1).max(100) });
export const loginBody = z.strictObject({ email, password: z.string().min(1).max(256) });

export const preferences = z.object({
  theme: z.enum(['light', 'dark', 'system']),
  keyboardShortcuts: z.boolean(),
});

export const userSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  avatarUrl: z.string().nullable(),
  hasPassword: z.boolean(),
  preferences,
  createdAt: z.string(),
});

export const toUser = (u: UserRow): z.infer<typeof userSchema> => ({
  id: u.id,
  name: u.name,
  email: u.email,
  avatarUrl: u.avatarUrl,
  hasPassword: u.passwordHash !== null,
  preferences: u.preferences,
  createdAt: iso(u.createdAt),
});

export const tokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  last4: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export const createdTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  token: z.string(),
  createdAt: z.string(),
});
export const createTokenBody = z.strictObject({ name: z.string().trim().min(1).max(100) });
