import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, exportPKCS8, generateKeyPair, jwtVerify, type JWK } from 'jose';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';

/**
 * A real OpenID Connect / OAuth 2.0 server (oidc-provider) shaped like one of the sign-in
 * providers, so the product's client library talks to it exactly as to the real one:
 *
 * - google: discovery, ID token with email and email_verified.
 * - apple: discovery, response_mode=form_post, a client secret that must be an ES256 JWT signed
 *   with the team's key (checked here as Apple checks it), email_verified as the string "true",
 *   and the person's name posted as the `user` field on their first authorization only.
 * - github: plain OAuth 2.0 at GitHub's paths, and the two API calls the product makes
 *   (GET /user and GET /user/emails) answered from the access token the server issued.
 * - x: plain OAuth 2.0 at X's paths with PKCE, and GET /2/users/me, which carries an email only
 *   when the account has one.
 *
 * Not modelled: rate limits, token refresh, key rotation, GitHub's scopes and X's other fields.
 * People sign in on oidc-provider's development login page with their subject as the login.
 */
export type ProviderKind = 'google' | 'apple' | 'github' | 'x';

export interface StandInAccount {
  sub: string;
  email?: string;
  emailVerified?: boolean;
  firstName?: string;
  lastName?: string;
}

export interface AppleKeys {
  teamId: string;
  keyId: string;
  /** PKCS#8 PEM: what Apple hands out as the .p8 file. */
  privateKeyPem: string;
}

export interface OidcStandIn {
  kind: ProviderKind;
  url: string;
  clientId: string;
  clientSecret: string;
  apple: AppleKeys;
  accounts: Map<string, StandInAccount>;
  /** Registers the product's callback; call once the product listens. */
  allowRedirect(redirectUri: string): void;
  stop(): Promise<void>;
}

const paths: Record<ProviderKind, Configuration['routes']> = {
  google: {},
  apple: {},
  github: { authorization: '/login/oauth/authorize', token: '/login/oauth/access_token' },
  x: { authorization: '/i/oauth2/authorize', token: '/2/oauth2/token' },
};

export async function startOidcStandIn(kind: ProviderKind): Promise<OidcStandIn> {
  const accounts = new Map<string, StandInAccount>();
  const signingKeys = await generateKeyPair('RS256', { extractable: true });
  const appleKeys = await generateKeyPair('ES256', { extractable: true });
  const apple: AppleKeys = {
    teamId: 'TEAM123456',
    keyId: 'KEY1234567',
    privateKeyPem: await exportPKCS8(appleKeys.privateKey),
  };
  const clientId = `${kind}-client`;
  const clientSecret = `${kind}-secret-${Math.random().toString(36).slice(2)}`;
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | null = null;
  const server: Server = createServer((req, res) => {
    if (handler) handler(req, res);
    else res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const namesSent = new Set<string>();

  const jwk: JWK = {
    ...(await exportJWK(signingKeys.privateKey)),
    use: 'sig',
    alg: 'RS256',
    kid: 'stand-in',
  };

  const allowRedirect = (redirectUri: string) => {
    const provider = new Provider(url, {
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: [redirectUri],
          response_types: ['code'],
          grant_types: ['authorization_code'],
          token_endpoint_auth_method:
            kind === 'apple' || kind === 'github' ? 'client_secret_post' : 'client_secret_basic',
        },
      ],
      jwks: { keys: [jwk] },
      routes: paths[kind],
      scopes: ['openid', 'email', 'name', 'user:email', 'users.read', 'tweet.read', 'users.email'],
      claims: { openid: ['sub'], email: ['email', 'email_verified'] },
      conformIdTokenClaims: false,
      features: { devInteractions: { enabled: true } },
      pkce: { required: () => true },
      findAccount(_ctx, sub) {
        const account = accounts.get(sub);
        if (!account) return undefined;
        return {
          accountId: sub,
          claims() {
            if (!account.email) return { sub };
            return {
              sub,
              email: account.email,
              // Apple sends the flag as a string.
              email_verified:
                kind === 'apple' ? String(account.emailVerified ?? false) : account.emailVerified,
            };
          },
        };
      },
    });
    if (kind === 'apple') provider.use(checkAppleClientSecret(apple, clientId, clientSecret, url));
    if (kind === 'apple') provider.use(postNameOnFirstAuthorization(accounts, namesSent));
    if (kind === 'github' || kind === 'x') provider.use(apiRoutes(kind, provider, accounts));
    const callback = provider.callback();
    handler = (req, res) => void callback(req, res);
  };

  return {
    kind,
    url,
    clientId,
    clientSecret,
    apple,
    accounts,
    allowRedirect,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function readForm(ctx: KoaContextWithOIDC): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of ctx.req) body += (chunk as Buffer).toString();
  return new URLSearchParams(body);
}

/**
 * Apple's client secret is a JWT the client signs with its key: ES256, kid = key id,
 * iss = team id, sub = client id, aud = Apple. A good one is swapped for the registered secret.
 */
function checkAppleClientSecret(
  apple: AppleKeys,
  clientId: string,
  registeredSecret: string,
  issuer: string,
) {
  const publicKey = import('node:crypto').then(({ createPublicKey }) =>
    createPublicKey(apple.privateKeyPem),
  );
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    if (ctx.method !== 'POST' || ctx.path !== '/token') return next();
    const form = await readForm(ctx);
    try {
      const { protectedHeader } = await jwtVerify(
        form.get('client_secret') ?? '',
        await publicKey,
        {
          algorithms: ['ES256'],
          issuer: apple.teamId,
          subject: clientId,
          audience: issuer,
        },
      );
      if (protectedHeader.kid !== apple.keyId) throw new Error('wrong key id');
      form.set('client_secret', registeredSecret);
    } catch {
      form.set('client_secret', 'refused');
    }
    (ctx.req as IncomingMessage & { body?: string }).body = form.toString();
    return next();
  };
}

/** Apple posts the person's name, as JSON in a `user` field, on the first authorization only. */
function postNameOnFirstAuthorization(accounts: Map<string, StandInAccount>, sent: Set<string>) {
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    await next();
    const body: unknown = ctx.body;
    const accountId = ctx.oidc?.session?.accountId;
    if (typeof body !== 'string' || !body.includes('Submitting Callback') || !accountId) return;
    const account = accounts.get(accountId);
    if (!account?.firstName || sent.has(accountId)) return;
    sent.add(accountId);
    const user = JSON.stringify({
      name: { firstName: account.firstName, lastName: account.lastName ?? '' },
      email: account.email,
    });
    const escaped = user.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
    ctx.body = body.replace(
      '<noscript>',
      `<input type="hidden" name="user" value="${escaped}"/>\n<noscript>`,
    );
  };
}

/** The API calls the product makes with the access token, answered for the token's account. */
function apiRoutes(
  kind: 'github' | 'x',
  provider: Provider,
  accounts: Map<string, StandInAccount>,
) {
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    const route =
      kind === 'github'
        ? ctx.path === '/user' || ctx.path === '/user/emails'
        : ctx.path === '/2/users/me';
    if (ctx.method !== 'GET' || !route) return next();
    const bearer = /^Bearer (.+)$/.exec(ctx.get('authorization'))?.[1] ?? '';
    const token = bearer ? await provider.AccessToken.find(bearer) : undefined;
    const account = token?.accountId ? accounts.get(token.accountId) : undefined;
    if (!token || token.isExpired || !account) {
      ctx.status = 401;
      ctx.body = { message: 'Bad credentials' };
      return;
    }
    if (ctx.path === '/user') ctx.body = { id: account.sub, login: account.sub };
    else if (ctx.path === '/user/emails')
      ctx.body = account.email
        ? [{ email: account.email, primary: true, verified: account.emailVerified ?? false }]
        : [];
    else
      ctx.body = {
        data: {
          id: account.sub,
          name: account.firstName ?? account.sub,
          username: account.sub,
          ...(account.email && account.emailVerified ? { confirmed_email: account.email } : {}),
        },
      };
  };
}
