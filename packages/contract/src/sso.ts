import { z } from 'zod';
import { email } from './auth.ts';

/** Field rules of SSO connections (docs/sso.md "Connections"). */
const name = z.string().trim().min(1).max(100);
/** Domains by syntax only: labels of letters, digits and hyphens, at least two (`acme.test`). */
export const domain = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(
    /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/,
    'A domain such as acme.com',
  );
const domains = z
  .array(domain)
  .min(1)
  .max(20)
  .refine((d) => new Set(d).size === d.length, 'Each domain once');
const defaultRole = z.enum(['admin', 'member', 'guest']);
const url = z
  .string()
  .trim()
  .max(2000)
  .pipe(z.url({ protocol: /^https?$/ }));

const oidcFields = {
  name,
  issuer: url,
  clientId: z.string().trim().min(1).max(500),
  clientSecret: z.string().min(1).max(2000),
  domains,
  defaultRole: defaultRole.optional(),
};
const samlFields = {
  name,
  metadataXml: z.string().min(1).max(500_000).optional(),
  metadataUrl: url.optional(),
  domains,
  defaultRole: defaultRole.optional(),
};

export const createOidc = z.strictObject({ type: z.literal('oidc'), ...oidcFields });
export const createSaml = z
  .strictObject({ type: z.literal('saml'), ...samlFields })
  .refine((b) => (b.metadataXml === undefined) !== (b.metadataUrl === undefined), {
    message: 'Exactly one of metadataXml and metadataUrl',
    path: ['metadataXml'],
  });
export const createBody = z.discriminatedUnion('type', [createOidc, createSaml]);
export type CreateBody = z.infer<typeof createBody>;

/** PATCH: any field of the body above (not `type`), and `requireSso`. */
export const patchBody = z.strictObject({
  name: name.optional(),
  issuer: url.optional(),
  clientId: oidcFields.clientId.optional(),
  clientSecret: oidcFields.clientSecret.optional(),
  metadataXml: samlFields.metadataXml,
  metadataUrl: samlFields.metadataUrl,
  domains: domains.optional(),
  defaultRole: defaultRole.optional(),
  requireSso: z.boolean().optional(),
});
export type PatchBody = z.infer<typeof patchBody>;

const domainOut = z.object({
  domain: z.string(),
  verified: z.boolean(),
  verificationRecord: z.object({ name: z.string(), value: z.string() }),
});

export const connectionOut = z.object({
  id: z.string(),
  type: z.enum(['oidc', 'saml']),
  name: z.string(),
  domains: z.array(domainOut),
  defaultRole: defaultRole,
  requireSso: z.boolean(),
  createdAt: z.string(),
  issuer: z.string().optional(),
  clientId: z.string().optional(),
  redirectUri: z.string().optional(),
  idpEntityId: z.string().optional(),
  entityId: z.string().optional(),
  acsUrl: z.string().optional(),
  metadataUrl: z.string().optional(),
});
export type ConnectionOut = z.infer<typeof connectionOut>;

export const verifiedOut = z.object({ domain: z.string(), verified: z.literal(true) });

/** "Continue with SSO" takes the email by sign-up's one rule, so its domain follows a single `@`. */
export const startBody = z.strictObject({ email });

/** Where an OpenID Connect provider returns: its query, other parameters let through. */
export const oidcCallbackQuery = z.looseObject({
  code: z.string().max(4000).optional(),
  state: z.string().max(500).optional(),
  error: z.string().max(500).optional(),
});
