import { createHash, randomBytes } from 'node:crypto';
import { Router } from 'express';
import { emailSchema, localRedirectSchema } from '@wagers/contracts/api/auth';
import { hashToken } from '@wagers/platform/auth/tokens';
import { commandContext } from '../context.ts';
import type { CommandServiceDeps } from '../deps.ts';
import { signInByEmail } from '../users/register.ts';
import { linkProblemPage } from './pages.ts';
import type { OAuthProvider } from './providers.ts';

const STATE_TTL_MS = 10 * 60 * 1000;

function safeRedirect(value: unknown): string | null {
  const parsed = localRedirectSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/**
 * Provider sign-in: the authorization-code flow with state and PKCE. The account is the one
 * that owns the provider's verified email, so signing in by link or by provider is the same person.
 */
export function oauthRouter(deps: CommandServiceDeps, providers: OAuthProvider[]): Router {
  const router = Router();
  const callbackUrl = (provider: OAuthProvider) =>
    `${deps.publicUrl()}/api/login/${provider.id}/callback`;

  for (const provider of providers) {
    router.get(`/api/login/${provider.id}`, async (req, res) => {
      const state = randomBytes(32).toString('base64url');
      const verifier = randomBytes(32).toString('base64url');
      const now = deps.runtime.now();
      await deps.pool.query(
        `INSERT INTO oauth_states (state_hash, provider, code_verifier, redirect, expires_at) VALUES ($1, $2, $3, $4, $5)`,
        [
          hashToken(state),
          provider.id,
          verifier,
          safeRedirect(req.query.redirect),
          new Date(now.getTime() + STATE_TTL_MS),
        ],
      );
      const url = new URL(provider.authorizeUrl);
      url.search = new URLSearchParams({
        client_id: provider.clientId,
        redirect_uri: callbackUrl(provider),
        response_type: 'code',
        scope: provider.scope,
        state,
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
      }).toString();
      res.redirect(303, url.toString());
    });

    router.get(`/api/login/${provider.id}/callback`, async (req, res) => {
      const fail = (message: string) => res.status(400).type('html').send(linkProblemPage(message));
      const state = typeof req.query.state === 'string' ? req.query.state : '';
      const code = typeof req.query.code === 'string' ? req.query.code : '';
      const pending = await deps.pool.query<{ code_verifier: string; redirect: string | null }>(
        `DELETE FROM oauth_states WHERE state_hash = $1 AND provider = $2 AND expires_at > $3
         RETURNING code_verifier, redirect`,
        [hashToken(state), provider.id, deps.runtime.now()],
      );
      const flow = pending.rows[0];
      if (!flow || !code)
        return fail(`Signing in with ${provider.name} did not finish. Please try again.`);

      const tokenResponse = await fetch(provider.tokenUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: callbackUrl(provider),
          client_id: provider.clientId,
          client_secret: provider.clientSecret,
          code_verifier: flow.code_verifier,
        }),
      });
      const token = (await tokenResponse.json().catch(() => ({}))) as { access_token?: string };
      if (!tokenResponse.ok || !token.access_token) {
        req.log.warn(
          { provider: provider.id, status: tokenResponse.status },
          'provider refused the code',
        );
        return fail(`${provider.name} did not confirm the sign-in. Please try again.`);
      }
      const identity = await provider.identity(token.access_token);
      const email = emailSchema.safeParse(identity.email);
      if (!identity.emailVerified || !email.success) {
        return fail(
          `Your ${provider.name} account has no verified email address. Sign in with an email link instead.`,
        );
      }
      const { userId } = await signInByEmail(
        deps,
        email.data,
        commandContext(req, deps.runtime),
        res,
      );
      req.log.info({ userId, provider: provider.id }, 'signed in');
      res.redirect(303, safeRedirect(flow.redirect) ?? '/');
    });
  }
  return router;
}
