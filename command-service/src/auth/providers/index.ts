import type { Config } from '@wagers/platform/config';
import { apple } from './apple.ts';
import { github } from './github.ts';
import { google } from './google.ts';
import type { SignInProvider } from './provider.ts';
import { x } from './x.ts';

export type { ProviderId, ProviderIdentity, SignInProvider } from './provider.ts';

/** Providers whose settings are all present; each switches on by itself. */
export function configuredProviders(config: Config): SignInProvider[] {
  const providers: SignInProvider[] = [];
  if (config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET)
    providers.push(
      google({
        issuer: config.GOOGLE_ISSUER,
        clientId: config.GOOGLE_CLIENT_ID,
        clientSecret: config.GOOGLE_CLIENT_SECRET,
      }),
    );
  if (config.GITHUB_CLIENT_ID && config.GITHUB_CLIENT_SECRET)
    providers.push(
      github({
        baseUrl: config.GITHUB_BASE_URL,
        apiUrl: config.GITHUB_API_URL,
        clientId: config.GITHUB_CLIENT_ID,
        clientSecret: config.GITHUB_CLIENT_SECRET,
      }),
    );
  if (config.X_CLIENT_ID && config.X_CLIENT_SECRET)
    providers.push(
      x({
        baseUrl: config.X_BASE_URL,
        apiUrl: config.X_API_URL,
        clientId: config.X_CLIENT_ID,
        clientSecret: config.X_CLIENT_SECRET,
      }),
    );
  if (
    config.APPLE_CLIENT_ID &&
    config.APPLE_TEAM_ID &&
    config.APPLE_KEY_ID &&
    config.APPLE_PRIVATE_KEY
  )
    providers.push(
      apple({
        issuer: config.APPLE_ISSUER,
        clientId: config.APPLE_CLIENT_ID,
        teamId: config.APPLE_TEAM_ID,
        keyId: config.APPLE_KEY_ID,
        privateKeyPem: config.APPLE_PRIVATE_KEY,
      }),
    );
  return providers;
}
