import { createPrivateKey } from 'node:crypto';
import { SignJWT } from 'jose';
import * as client from 'openid-client';
import { z } from 'zod';
import { discovered, isTrue, type SignInProvider } from './provider.ts';

/** The `user` field Apple posts on a person's first authorization only. */
const appleUserSchema = z.object({
  name: z.object({ firstName: z.string().optional(), lastName: z.string().optional() }).optional(),
});

function firstSignInName(posted: URLSearchParams | null) {
  try {
    const parsed = appleUserSchema.safeParse(JSON.parse(posted?.get('user') ?? 'null'));
    const name = parsed.success ? parsed.data.name : undefined;
    return { firstName: name?.firstName?.trim() || null, lastName: name?.lastName?.trim() || null };
  } catch {
    return { firstName: null, lastName: null };
  }
}

/**
 * Sign in with Apple: OpenID Connect with response_mode=form_post. The client secret is a short
 * JWT signed (ES256) with the team's key, made fresh for each sign-in. The email comes from the
 * verified ID token; the name only from the form Apple posts the first time.
 */
export function apple(settings: {
  issuer: string;
  clientId: string;
  teamId: string;
  keyId: string;
  privateKeyPem: string;
}): SignInProvider {
  const key = createPrivateKey(settings.privateKeyPem.replace(/\\n/g, '\n'));
  const server = discovered(settings.issuer, settings.clientId, client.None());
  return {
    id: 'apple',
    name: 'Apple',
    openid: true,
    formPost: true,
    scope: 'openid email name',
    async configuration() {
      const metadata = (await server()).serverMetadata();
      const secret = await new SignJWT({})
        .setProtectedHeader({ alg: 'ES256', kid: settings.keyId })
        .setIssuer(settings.teamId)
        .setSubject(settings.clientId)
        .setAudience(settings.issuer)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(key);
      const configuration = new client.Configuration(
        metadata,
        settings.clientId,
        undefined,
        client.ClientSecretPost(secret),
      );
      if (new URL(settings.issuer).protocol === 'http:')
        client.allowInsecureRequests(configuration);
      return configuration;
    },
    identity(_configuration, tokens, posted) {
      const claims = tokens.claims();
      if (!claims) throw new Error('Apple sent no ID token');
      return {
        subject: claims.sub,
        email: typeof claims.email === 'string' ? claims.email : null,
        emailVerified: isTrue(claims.email_verified),
        ...firstSignInName(posted),
      };
    },
  };
}
