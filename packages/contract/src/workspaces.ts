import { z } from 'zod';
import { email } from './auth.ts';
import { idParam } from './envelope.ts';
import { languageSchema } from './languages.ts';
import { PLAN_IDS } from './plans.ts';
import { SLUG_MAX, SLUG_PATTERN } from './slug.ts';

export const ROLES = ['owner', 'admin', 'member', 'guest'] as const;
/**
 * Roles PATCH and invitations may assign: `owner` only moves through transfer-ownership
 * (docs/workspaces.md "Members").
 */
export const ASSIGNABLE_ROLES = ['admin', 'member', 'guest'] as const;

const name = z.string().trim().min(1).max(100);
const slug = z
  .string()
  .max(SLUG_MAX, `At most ${SLUG_MAX} characters`)
  .regex(
    SLUG_PATTERN,
    'Lowercase letters, digits and single dashes; must start and end with a letter or digit',
  );

export const createWorkspaceBody = z.strictObject({ name, slug: slug.optional() });
export const updateWorkspaceBody = z.strictObject({
  name: name.optional(),
  slug: slug.optional(),
  /** docs/languages.md "Widget": the widget's language when the visitor's is not supported. */
  defaultLanguage: languageSchema.optional(),
});
export const transferBody = z.strictObject({ userId: idParam });

export const assignableRole = z.enum(ASSIGNABLE_ROLES, {
  message: 'Must be admin, member or guest (the owner changes only through transfer-ownership)',
});
export const updateMemberBody = z.strictObject({ role: assignableRole });

export const createInvitationBody = z.strictObject({ email, role: assignableRole });

export const wsParams = z.object({ workspaceId: idParam });
export const memberParams = z.object({ workspaceId: idParam, userId: idParam });
export const invitationParams = z.object({ workspaceId: idParam, invitationId: idParam });
export const tokenParams = z.object({ token: z.string().min(1).max(200) });

const role = z.enum(ROLES);

/** A workspace in a list (docs/workspaces.md "Workspaces"), with `trialEndsAt`. */
export const workspaceSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  plan: z.enum(['free', 'pro', 'enterprise']),
  role,
  createdAt: z.string(),
  trialEndsAt: z.string().nullable(),
  /** One of the supported languages (docs/languages.md), `en` unless changed. */
  defaultLanguage: languageSchema,
});
/**
 * docs/workspaces.md "Workspaces": the single-workspace response also has `memberCount`,
 * `assistantCount` and `aiProvider`, the model answering on this server (AI_PROVIDER; `offline` is
 * the built-in responder), so the dashboard can say where answers come from.
 */
export const workspaceDetailSchema = workspaceSchema.extend({
  memberCount: z.number().int(),
  assistantCount: z.number().int(),
  aiProvider: z.enum(['offline', 'openai', 'anthropic']),
});

export const AVAILABILITIES = ['online', 'busy', 'offline'] as const;

export const memberSchema = z.object({
  userId: z.string(),
  name: z.string(),
  email: z.string(),
  role,
  joinedAt: z.string(),
  availability: z.enum(AVAILABILITIES).describe('Whether they take conversations now (docs/workspaces.md)'),
});

/** `PUT /api/workspaces/{ws}/members/me/availability`. */
export const availabilityBody = z.strictObject({ status: z.enum(AVAILABILITIES) });

export const invitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role,
  expiresAt: z.string(),
  createdAt: z.string(),
});
export const createdInvitationSchema = invitationSchema.extend({ inviteUrl: z.string() });
export const acceptedSchema = z.object({ workspaceId: z.string(), role });

/** `GET /api/v1/workspace`: the workspace an API key belongs to, and the key's scopes (docs/api.md). */
export const keyWorkspaceSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  plan: z.enum(PLAN_IDS),
  scopes: z.array(z.string()),
});
