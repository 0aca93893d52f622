import * as client from 'openid-client';
import { discovered, isTrue, type SignInProvider } from './provider.ts';

/** Google: OpenID Connect; the email and its verification come in the ID token. */
export function google(settings: {
  issuer: string;
  clientId: string;
  clientSecret: string;
}): SignInProvider {
  return {
    id: 'google',
    name: 'Google',
    openid: true,
    formPost: false,
    scope: 'openid email',
    configuration: discovered(
      settings.issuer,
      settings.clientId,
      client.ClientSecretBasic(settings.clientSecret),
    ),
    identity(_configuration, tokens) {
      const claims = tokens.claims();
      if (!claims) throw new Error('Google sent no ID token');
      return {
        subject: claims.sub,
        email: typeof claims.email === 'string' ? claims.email : null,
        emailVerified: isTrue(claims.email_verified),
        firstName: null,
        lastName: null,
      };
    },
  };
}
