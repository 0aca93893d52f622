import { startOidcStandIn, type OidcStandIn, type ProviderKind } from './stand-in.ts';

export type StandIns = Record<ProviderKind, OidcStandIn>;

/** One stand-in per provider, each shaped by that provider's quirks. */
export async function startStandIns(): Promise<StandIns> {
  const [google, apple, github, x] = await Promise.all(
    (['google', 'apple', 'github', 'x'] as const).map((kind) => startOidcStandIn(kind)),
  );
  if (!google || !apple || !github || !x) throw new Error('a stand-in did not start');
  return { google, apple, github, x };
}

/** The product's settings that point every provider at its stand-in. */
export function providerSettings(standIns: StandIns): Record<string, string> {
  const { google, apple, github, x } = standIns;
  return {
    GOOGLE_CLIENT_ID: google.clientId,
    GOOGLE_CLIENT_SECRET: google.clientSecret,
    GOOGLE_ISSUER: google.url,
    GITHUB_CLIENT_ID: github.clientId,
    GITHUB_CLIENT_SECRET: github.clientSecret,
    GITHUB_BASE_URL: github.url,
    GITHUB_API_URL: github.url,
    X_CLIENT_ID: x.clientId,
    X_CLIENT_SECRET: x.clientSecret,
    X_BASE_URL: x.url,
    X_API_URL: x.url,
    APPLE_CLIENT_ID: apple.clientId,
    APPLE_TEAM_ID: apple.apple.teamId,
    APPLE_KEY_ID: apple.apple.keyId,
    // As an operator would put a .p8 key in one line of an environment file.
    APPLE_PRIVATE_KEY: apple.apple.privateKeyPem.replace(/\n/g, '\\n'),
    APPLE_ISSUER: apple.url,
  };
}

/** Registers the product's callbacks once it listens. */
export function allowProduct(standIns: StandIns, productUrl: string): void {
  for (const standIn of Object.values(standIns))
    standIn.allowRedirect(`${productUrl}/api/login/${standIn.kind}/callback`);
}

export async function stopStandIns(standIns: StandIns | undefined): Promise<void> {
  await Promise.all(Object.values(standIns ?? {}).map((standIn) => standIn.stop()));
}
