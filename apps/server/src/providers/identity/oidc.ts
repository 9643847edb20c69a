import * as client from 'openid-client';
import { createFetch } from '../../lib/outbound/web-fetch.ts';
import { IdentityError } from './errors.ts';

/**
 * OpenID Connect through `openid-client` (docs/sso.md "Signing in"): discovery, the
 * authorization code flow with PKCE (S256), `state` and `nonce`, and the ID token's checks
 * (signature against the provider's keys, issuer, audience, expiry, nonce) are the library's.
 * Requests go through the outbound guard; `allowPrivateNetworks` (WEBHOOK_ALLOW_PRIVATE_NETWORKS)
 * also lets `http://` issuers through, as docs/sso.md says.
 */
export type OidcOptions = { allowPrivateNetworks: boolean };
export type OidcClient = {
  metadata: Record<string, unknown>;
  clientId: string;
  clientSecret: string;
};

/** Clock skew allowed on the ID token's times (docs/sso.md: 3 minutes). */
export const CLOCK_TOLERANCE_S = 180;

/** The outbound guard's fetch (lib/outbound) for the library's requests. */
const guardedFetch = (opts: OidcOptions) =>
  createFetch({ allowPrivateNetworks: opts.allowPrivateNetworks }) as unknown as client.CustomFetch;

function options(opts: OidcOptions) {
  return {
    [client.customFetch]: guardedFetch(opts),
    ...(opts.allowPrivateNetworks ? { execute: [client.allowInsecureRequests] } : {}),
    timeout: 10,
  };
}

/** `{issuer}/.well-known/openid-configuration`; the reason in words when it is not an issuer. */
export async function discover(
  issuer: string,
  clientId: string,
  clientSecret: string,
  opts: OidcOptions,
): Promise<Record<string, unknown>> {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new IdentityError('The issuer is not a URL');
  }
  if (url.protocol !== 'https:' && !(opts.allowPrivateNetworks && url.protocol === 'http:')) {
    throw new IdentityError('The issuer must be an https:// URL');
  }
  try {
    const config = await client.discovery(url, clientId, clientSecret, undefined, options(opts));
    const metadata = { ...config.serverMetadata() } as Record<string, unknown>;
    if (typeof metadata.authorization_endpoint !== 'string' || typeof metadata.token_endpoint !== 'string') {
      throw new IdentityError('The provider names no authorization or token endpoint');
    }
    return metadata;
  } catch (err) {
    if (err instanceof IdentityError) throw err;
    throw new IdentityError(`Discovery at ${issuer} failed: ${reasonOf(err)}`, { cause: err });
  }
}

function configuration(c: OidcClient, opts: OidcOptions): client.Configuration {
  const config = new client.Configuration(c.metadata as client.ServerMetadata, c.clientId, {
    client_secret: c.clientSecret,
    [client.clockTolerance]: CLOCK_TOLERANCE_S,
  });
  config[client.customFetch] = guardedFetch(opts);
  config.timeout = 10;
  if (opts.allowPrivateNetworks) client.allowInsecureRequests(config);
  // The library trusts an ID token from the token endpoint without its signature (OIDC Core
  // 3.1.3.7 allows it over TLS); Parley checks it against the provider's published keys anyway.
  client.enableNonRepudiationChecks(config);
  return config;
}

export type OidcChecks = { state: string; nonce: string; codeVerifier: string };

export function newChecks(): OidcChecks {
  return {
    state: client.randomState(),
    nonce: client.randomNonce(),
    codeVerifier: client.randomPKCECodeVerifier(),
  };
}

/** The provider's authorization URL for one sign-in. */
export async function authorizationUrl(
  c: OidcClient,
  opts: OidcOptions,
  redirectUri: string,
  checks: OidcChecks,
): Promise<string> {
  const url = client.buildAuthorizationUrl(configuration(c, opts), {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    response_type: 'code',
    state: checks.state,
    nonce: checks.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
    code_challenge_method: 'S256',
  });
  return url.href;
}

export type OidcIdentity = { email: string | undefined; emailVerified: boolean; name: string | undefined };

/** Redeems the code on the callback URL; every check failing is an IdentityError. */
export async function redeem(
  c: OidcClient,
  opts: OidcOptions,
  /** The callback as the provider sent it, on PUBLIC_BASE_URL: its path is the redirect URI. */
  callbackUrl: URL,
  checks: OidcChecks,
): Promise<OidcIdentity> {
  try {
    const config = configuration(c, opts);
    const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      pkceCodeVerifier: checks.codeVerifier,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw new IdentityError('No ID token');
    let found: Record<string, unknown> = claims;
    // Providers that keep the ID token small (oidc-provider by default) give the email at userinfo,
    // for the subject the checked ID token names.
    if (typeof claims.email !== 'string' && typeof c.metadata.userinfo_endpoint === 'string') {
      found = { ...(await client.fetchUserInfo(config, tokens.access_token, claims.sub)), ...claims };
    }
    return {
      email: typeof found.email === 'string' ? found.email : undefined,
      emailVerified: found.email_verified === true,
      name: typeof found.name === 'string' ? found.name : undefined,
    };
  } catch (err) {
    if (err instanceof IdentityError) throw err;
    throw new IdentityError(`Sign-in refused: ${reasonOf(err)}`, { cause: err });
  }
}

function reasonOf(err: unknown): string {
  if (!(err instanceof Error)) return 'unknown error';
  const cause = (err as { cause?: unknown }).cause;
  const extra = cause instanceof Error && cause.message !== err.message ? ` (${cause.message})` : '';
  return `${err.message}${extra}`.slice(0, 300);
}
