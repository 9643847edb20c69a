import { z } from 'zod';
import { languageSchema } from './languages.ts';

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
  /** The dashboard's language (docs/languages.md "Dashboard"); null: the browser's. */
  language: languageSchema.nullable(),
  createdAt: z.string(),
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

/** `GET /api/auth/session`: who is signed in, until when. */
export const sessionSchema = z.object({ user: userSchema, expiresAt: z.string() });
/** Sign-up and sign-in answer the user. */
export const signedInSchema = z.object({ user: userSchema });
