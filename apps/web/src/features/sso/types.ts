/** An SSO connection as the API returns it (docs/sso.md "Connections"). */
export type SsoDomain = {
  domain: string;
  verified: boolean;
  verificationRecord: { name: string; value: string };
};
export type SsoConnection = {
  id: string;
  type: 'oidc' | 'saml';
  name: string;
  domains: SsoDomain[];
  defaultRole: 'admin' | 'member' | 'guest';
  requireSso: boolean;
  createdAt: string;
  issuer?: string;
  clientId?: string;
  redirectUri?: string;
  idpEntityId?: string;
  entityId?: string;
  acsUrl?: string;
  metadataUrl?: string;
};

/** What the test popup posts to the settings page that opened it (SsoTestResult.tsx). */
export type SsoTestMessage = { type: 'parley-sso-test'; result: 'ok' | 'failed'; email: string | null };
