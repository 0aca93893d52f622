import * as client from 'openid-client';
import {
  fetchJson,
  plainOAuth2,
  type PlainOAuth2Settings,
  type SignInProvider,
} from './provider.ts';

/** GitHub: plain OAuth 2.0; the person's id and primary email come from its API. */
export function github(settings: PlainOAuth2Settings): SignInProvider {
  const { configuration, api } = plainOAuth2(
    settings,
    ({ web }) => ({
      authorization: `${web}/login/oauth/authorize`,
      token: `${web}/login/oauth/access_token`,
    }),
    client.ClientSecretPost,
  );
  return {
    id: 'github',
    name: 'GitHub',
    openid: false,
    formPost: false,
    scope: 'user:email',
    configuration: () => Promise.resolve(configuration),
    async identity(config, tokens) {
      const user = await fetchJson<{ id: number | string }>(
        config,
        tokens.access_token,
        `${api}/user`,
      );
      const emails = await fetchJson<{ email: string; primary: boolean; verified: boolean }[]>(
        config,
        tokens.access_token,
        `${api}/user/emails`,
      );
      const primary = emails.find((entry) => entry.primary) ?? null;
      return {
        subject: String(user.id),
        email: primary?.email ?? null,
        emailVerified: primary?.verified === true,
        firstName: null,
        lastName: null,
      };
    },
  };
}
