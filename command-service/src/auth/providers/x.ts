import * as client from 'openid-client';
import { fetchJson, manualConfiguration, type SignInProvider } from './provider.ts';

/**
 * X: OAuth 2.0 with PKCE. X shares a confirmed email only when the person has one and the app
 * may read it; without one the person gives an email on our page and confirms it by link.
 */
export function x(settings: {
  baseUrl: string;
  apiUrl: string;
  clientId: string;
  clientSecret: string;
}): SignInProvider {
  const web = settings.baseUrl.replace(/\/$/, '');
  const api = settings.apiUrl.replace(/\/$/, '');
  const configuration = manualConfiguration(
    {
      issuer: web,
      authorization_endpoint: `${web}/i/oauth2/authorize`,
      token_endpoint: `${api}/2/oauth2/token`,
    },
    settings.clientId,
    client.ClientSecretBasic(settings.clientSecret),
  );
  return {
    id: 'x',
    name: 'X',
    openid: false,
    formPost: false,
    scope: 'users.read tweet.read users.email',
    configuration: () => Promise.resolve(configuration),
    async identity(config, tokens) {
      const me = await fetchJson<{ data: { id: string; confirmed_email?: string } }>(
        config,
        tokens.access_token,
        `${api}/2/users/me?user.fields=confirmed_email`,
      );
      return {
        subject: me.data.id,
        email: me.data.confirmed_email ?? null,
        emailVerified: Boolean(me.data.confirmed_email),
        firstName: null,
        lastName: null,
      };
    },
  };
}
