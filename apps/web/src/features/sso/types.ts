import type { connectionOut, createBody } from '@parley/contract/sso';
import type { z } from 'zod';

/** An SSO connection as the API returns it (docs/sso.md "Connections"; packages/contract/src/sso.ts). */
export type SsoConnection = z.output<typeof connectionOut>;
export type SsoDomain = SsoConnection['domains'][number];
/** The create body: an OpenID Connect or a SAML connection. */
export type CreateSsoConnection = z.input<typeof createBody>;

/** What the test popup posts to the settings page that opened it (SsoTestResult.tsx). */
export type SsoTestMessage = { type: 'parley-sso-test'; result: 'ok' | 'failed'; email: string | null };
