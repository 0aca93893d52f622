import * as client from 'openid-client';

export type ProviderId = 'google' | 'github' | 'x' | 'apple';

/** What a provider told us about the person: only a verified email finds or makes an account. */
export interface ProviderIdentity {
  /** The provider's stable id for the person. */
  subject: string;
  email: string | null;
  emailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
}

export type Tokens = Awaited<ReturnType<typeof client.authorizationCodeGrant>>;

export interface SignInProvider {
  id: ProviderId;
  name: string;
  /** OpenID Connect: an ID token, checked against a nonce. Otherwise plain OAuth 2.0. */
  openid: boolean;
  /** The provider posts its answer to the callback (response_mode=form_post). */
  formPost: boolean;
  scope: string;
  /** The client library's view of the provider and of us as its client, for one sign-in. */
  configuration(): Promise<client.Configuration>;
  /** `posted` is what a form_post provider sent to the callback. */
  identity(
    configuration: client.Configuration,
    tokens: Tokens,
    posted: URLSearchParams | null,
  ): ProviderIdentity | Promise<ProviderIdentity>;
}

const isPlainHttp = (url: string) => new URL(url).protocol === 'http:';

/** Discovery once, retried after a failure; plain http only where the setting says http (tests). */
export function discovered(
  issuer: string,
  clientId: string,
  clientAuth: client.ClientAuth | undefined,
): () => Promise<client.Configuration> {
  let pending: Promise<client.Configuration> | null = null;
  return () => {
    pending ??= client
      .discovery(new URL(issuer), clientId, undefined, clientAuth, {
        execute: isPlainHttp(issuer) ? [client.allowInsecureRequests] : [],
      })
      .catch((error: unknown) => {
        pending = null;
        throw error;
      });
    return pending;
  };
}

export interface PlainOAuth2Settings {
  baseUrl: string;
  apiUrl: string;
  clientId: string;
  clientSecret: string;
}

/**
 * A plain OAuth 2.0 server with no discovery document (GitHub, X): its endpoints are known paths
 * under its site (`web`) or its API host (`api`).
 */
export function plainOAuth2(
  settings: PlainOAuth2Settings,
  endpoints: (hosts: { web: string; api: string }) => { authorization: string; token: string },
  clientAuth: (secret: string) => client.ClientAuth,
): { configuration: client.Configuration; api: string } {
  const web = settings.baseUrl.replace(/\/$/, '');
  const api = settings.apiUrl.replace(/\/$/, '');
  const { authorization, token } = endpoints({ web, api });
  const configuration = new client.Configuration(
    { issuer: web, authorization_endpoint: authorization, token_endpoint: token },
    settings.clientId,
    undefined,
    clientAuth(settings.clientSecret),
  );
  if (isPlainHttp(token)) client.allowInsecureRequests(configuration);
  return { configuration, api };
}

/** A GET to a provider's API with the access token, as JSON. */
export async function fetchJson<T>(
  configuration: client.Configuration,
  accessToken: string,
  url: string,
): Promise<T> {
  const response = await client.fetchProtectedResource(
    configuration,
    accessToken,
    new URL(url),
    'GET',
    undefined,
    new Headers({ accept: 'application/json', 'user-agent': 'Wagers' }),
  );
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return (await response.json()) as T;
}

/** Providers write the flag as a boolean or, like Apple, as the string "true". */
export const isTrue = (value: unknown) => value === true || value === 'true';
