import * as client from 'openid-client';
import { fetchJson, manualConfiguration, type SignInProvider } from './provider.ts';

/** GitHub: plain OAuth 2.0; the person's id and primary email come from its API. */
export function github(settings: {
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
      authorization_endpoint: `${web}/login/oauth/authorize`,
      token_endpoint: `${web}/login/oauth/access_token`,
    },
    settings.clientId,
    client.ClientSecretPost(settings.clientSecret),
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
