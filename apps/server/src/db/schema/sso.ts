import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';
import { workspaceRef } from './refs.ts';

export type SsoType = 'oidc' | 'saml';

/**
 * A workspace's identity provider (docs/sso.md "Connections"): OpenID Connect (the discovered
 * provider metadata is kept, the client secret only sealed with ENCRYPTION_KEY) or SAML 2.0 (the
 * IdP's entity id, redirect-binding SSO URL and signing certificates read from its metadata).
 */
export const ssoConnections = pgTable(
  'sso_connections',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceRef(),
    type: text('type').$type<SsoType>().notNull(),
    name: text('name').notNull(),
    defaultRole: text('default_role').$type<'admin' | 'member' | 'guest'>().notNull().default('member'),
    requireSso: boolean('require_sso').notNull().default(false),
    issuer: text('issuer'),
    clientId: text('client_id'),
    clientSecretSealed: text('client_secret_sealed'),
    oidcMetadata: jsonb('oidc_metadata').$type<Record<string, unknown>>(),
    metadataUrl: text('metadata_url'),
    metadataXml: text('metadata_xml'),
    idpEntityId: text('idp_entity_id'),
    idpSsoUrl: text('idp_sso_url'),
    idpCerts: jsonb('idp_certs').$type<string[]>(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('sso_connections_workspace_idx').on(t.workspaceId, t.createdAt)],
);

/** An email domain of a connection; sign-in through it needs the DNS TXT record verified. */
export const ssoDomains = pgTable(
  'sso_domains',
  {
    connectionId: text('connection_id')
      .notNull()
      .references(() => ssoConnections.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id').notNull(),
    domain: text('domain').notNull(),
    token: text('token').notNull(),
    verifiedAt: ts('verified_at'),
  },
  (t) => [
    primaryKey({ columns: [t.connectionId, t.domain] }),
    // A domain signs in to one place: verified once across all workspaces.
    uniqueIndex('sso_domains_verified_uq').on(t.domain).where(sql`verified_at is not null`),
  ],
);

/**
 * A sign-in in progress: the OIDC state (id) with its PKCE verifier, nonce and the hash of the
 * browser cookie that started it, or a SAML AuthnRequest id awaiting its one answer.
 */
export const ssoFlows = pgTable(
  'sso_flows',
  {
    id: text('id').primaryKey(),
    connectionId: text('connection_id')
      .notNull()
      .references(() => ssoConnections.id, { onDelete: 'cascade' }),
    browserHash: text('browser_hash'),
    codeVerifier: text('code_verifier'),
    nonce: text('nonce'),
    returnTo: text('return_to'),
    expiresAt: ts('expires_at').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('sso_flows_expires_idx').on(t.expiresAt)],
);

/** SAML assertion ids already accepted, kept until their NotOnOrAfter: a replay is refused. */
export const ssoSeenAssertions = pgTable(
  'sso_seen_assertions',
  {
    connectionId: text('connection_id')
      .notNull()
      .references(() => ssoConnections.id, { onDelete: 'cascade' }),
    assertionId: text('assertion_id').notNull(),
    notOnOrAfter: ts('not_on_or_after').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.connectionId, t.assertionId] }),
    index('sso_seen_assertions_expiry_idx').on(t.notOnOrAfter),
  ],
);
