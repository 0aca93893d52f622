import type { Config } from '@wagers/platform/config';

/** What a provider told us about the person: only a verified email signs anyone in. */
export interface ProviderIdentity {
  email: string | null;
  emailVerified: boolean;
}

export interface OAuthProvider {
  id: 'google' | 'github';
  name: string;
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  scope: string;
  identity(accessToken: string): Promise<ProviderIdentity>;
}

async function getJson<T>(url: string, accessToken: string): Promise<T> {
  const response = await fetch(url, {
    headers: {
      authorization: `Bearer ${accessToken}`,
      accept: 'application/json',
      'user-agent': 'Wagers',
    },
  });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return (await response.json()) as T;
}

/** Providers whose client settings are present; each switches on by itself. */
export function configuredProviders(config: Config): OAuthProvider[] {
  const providers: OAuthProvider[] = [];
  if (config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET) {
    providers.push({
      id: 'google',
      name: 'Google',
      clientId: config.GOOGLE_CLIENT_ID,
      clientSecret: config.GOOGLE_CLIENT_SECRET,
      authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenUrl: 'https://oauth2.googleapis.com/token',
      scope: 'openid email',
      async identity(accessToken) {
        const info = await getJson<{ email?: string; email_verified?: boolean }>(
          'https://openidconnect.googleapis.com/v1/userinfo',
          accessToken,
        );
        return { email: info.email ?? null, emailVerified: info.email_verified === true };
      },
    });
  }
  if (config.GITHUB_CLIENT_ID && config.GITHUB_CLIENT_SECRET) {
    const web = config.GITHUB_BASE_URL.replace(/\/$/, '');
    const api = config.GITHUB_API_URL.replace(/\/$/, '');
    providers.push({
      id: 'github',
      name: 'GitHub',
      clientId: config.GITHUB_CLIENT_ID,
      clientSecret: config.GITHUB_CLIENT_SECRET,
      authorizeUrl: `${web}/login/oauth/authorize`,
      tokenUrl: `${web}/login/oauth/access_token`,
      scope: 'user:email',
      async identity(accessToken) {
        const emails = await getJson<{ email: string; primary: boolean; verified: boolean }[]>(
          `${api}/user/emails`,
          accessToken,
        );
        const primary = emails.find((entry) => entry.primary) ?? null;
        return { email: primary?.email ?? null, emailVerified: primary?.verified === true };
      },
    });
  }
  return providers;
}
