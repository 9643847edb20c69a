import { z } from 'zod';
import { password } from './auth.ts';
import { languageSchema } from './languages.ts';

const isHttpsUrl = (value: string) => {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname.length > 0 && !url.username && !url.password;
  } catch {
    return false;
  }
};

/**
 * docs/accounts.md "Profile": name, avatarUrl, preferences (a partial merge) and the dashboard's language
 * (docs/languages.md "Dashboard"; null goes back to the browser's) change here; the login email
 * is changed through support only, so it is a 400 that
 * says so rather than the generic unknown-field message.
 */
export const patchAccountBody = z.strictObject({
  name: z.string().trim().min(1).max(100).optional(),
  avatarUrl: z.string().trim().max(2048).refine(isHttpsUrl, 'Must be an https:// URL').nullable().optional(),
  preferences: z
    .strictObject({
      theme: z.enum(['light', 'dark', 'system']).optional(),
      keyboardShortcuts: z.boolean().optional(),
    })
    .optional(),
  language: languageSchema.nullable().optional(),
  email: z
    .unknown()
    .refine((v) => v === undefined, 'The login email is changed through support')
    .optional(),
});
export type PatchAccountInput = z.infer<typeof patchAccountBody>;

export const changePasswordBody = z.strictObject({
  currentPassword: z.string().min(1).max(256),
  newPassword: password,
});

export const deleteAccountBody = z.strictObject({
  confirm: z.literal('DELETE', { message: 'Type DELETE to confirm' }),
});

export const exportParams = z.object({ token: z.string().max(100) });

/** `POST /api/account/export`: where the export will be mailed, and until when its link works. */
export const exportBody = z.strictObject({}).nullish();
export const exportStarted = z.object({ email: z.string(), expiresAt: z.string() });
