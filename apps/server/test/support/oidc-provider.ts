import { createSign, generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

/**
 * A real OpenID Connect provider (`oidc-provider`) on a local port, for the SSO tests. Its
 * interactions sign in `loginAs` at once (no forms), and grant the scopes asked for; accounts are
 * the emails added with `addAccount`. `tamperIdToken` rewrites the ID token the token endpoint
 * answers (claims changed and signed again with the provider's key, or with another key).
 */
export type OidcAccount = { email: string; emailVerified?: boolean; name?: string };
export type TestOidcProvider = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The account the next sign-in is (undefined: the provider refuses with access_denied). */
  loginAs: string | undefined;
  addAccount(account: OidcAccount): void;
  removeAccount(email: string): void;
  tamperIdToken: ((claims: Record<string, unknown>) => Record<string, unknown>) | undefined;
  /** Sign the tampered token with a key the provider never published. */
  forgeWithOtherKey: boolean;
  close(): Promise<void>;
};

function b64url(v: Buffer | string) {
  return Buffer.from(v).toString('base64url');
}

function signJwt(header: Record<string, unknown>, claims: Record<string, unknown>, key: KeyObject) {
  const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(claims))}`;
  const signature = createSign('RSA-SHA256').update(input).sign(key);
  return `${input}.${b64url(signature)}`;
}

export async function startOidcProvider(redirectUris: string[]): Promise<TestOidcProvider> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const kid = 'test-key';
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid, use: 'sig', alg: 'RS256' };
  const accounts = new Map<string, OidcAccount>();
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = `parley-${randomBytes(4).toString('hex')}`;
  const clientSecret = randomBytes(24).toString('base64url');

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [jwk as never] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: async (_ctx, sub) => {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: async () => ({
          sub,
          email: account.email,
          email_verified: account.emailVerified ?? true,
          name: account.name ?? account.email.split('@')[0],
        }),
      };
    },
  });

  const state: TestOidcProvider = {
    issuer,
    clientId,
    clientSecret,
    loginAs: undefined,
    addAccount: (a) => accounts.set(a.email, a),
    removeAccount: (email) => accounts.delete(email),
    tamperIdToken: undefined,
    forgeWithOtherKey: false,
    close: () => new Promise((r) => server.close(() => r())),
  };

  provider.use(async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    await next();
    const body = ctx.body as { id_token?: string } | undefined;
    if (ctx.path === '/token' && state.tamperIdToken && body?.id_token) {
      const [h, p] = body.id_token.split('.');
      const header = JSON.parse(Buffer.from(h!, 'base64url').toString()) as Record<string, unknown>;
      const claims = state.tamperIdToken(JSON.parse(Buffer.from(p!, 'base64url').toString()));
      ctx.body = { ...body, id_token: signJwt(header, claims, state.forgeWithOtherKey ? other : privateKey) };
    }
  });

  const callback = provider.callback();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!req.url?.startsWith('/interaction/')) return callback(req, res);
    void interact(req, res).catch((err) => {
      res.statusCode = 500;
      res.end(String(err));
    });
  });

  async function interact(req: IncomingMessage, res: ServerResponse) {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      const who = state.loginAs;
      const result =
        who && accounts.has(who)
          ? { login: { accountId: who } }
          : { error: 'access_denied', error_description: 'Unknown user' };
      await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
      return;
    }
    const grant = new provider.Grant({
      accountId: details.session?.accountId,
      clientId: String(details.params.client_id),
    });
    grant.addOIDCScope(String(details.params.scope));
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }

  return state;
}

/**
 * Follows the provider's redirects as a browser would (its own cookies kept) from an
 * authorization URL until it sends the browser back to `until`; returns that URL.
 */
export async function followToCallback(start: string, until: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = new URL(start);
  for (let hop = 0; hop < 20; hop++) {
    if (url.href.startsWith(until)) return url;
    const res = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      jar.set(pair!.slice(0, i), pair!.slice(i + 1));
    }
    const location = res.headers.get('location');
    if (!location) throw new Error(`provider stopped at ${url.href}: ${res.status} ${await res.text()}`);
    url = new URL(location, url);
  }
  throw new Error('too many redirects');
}
