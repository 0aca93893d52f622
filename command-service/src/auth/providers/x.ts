import * as client from 'openid-client';
import {
  fetchJson,
  plainOAuth2,
  type PlainOAuth2Settings,
  type SignInProvider,
} from './provider.ts';

/**
 * X: OAuth 2.0 with PKCE. X shares a confirmed email only when the person has one and the app
 * may read it; without one the person gives an email on our page and confirms it by link.
 */
export function x(settings: PlainOAuth2Settings): SignInProvider {
  const { configuration, api } = plainOAuth2(
    settings,
    ({ web, api }) => ({
      authorization: `${web}/i/oauth2/authorize`,
      token: `${api}/2/oauth2/token`,
    }),
    client.ClientSecretBasic,
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
