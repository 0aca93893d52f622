import express, { Router, type Request, type Response } from 'express';
import * as client from 'openid-client';
import {
  emailSchema,
  localRedirectSchema,
  providerEmailRequestSchema,
} from '@wagers/contracts/api/auth';
import { readCookie } from '@wagers/platform/auth/cookies';
import { sessionToken } from '@wagers/platform/auth/sessions';
import { newToken } from '@wagers/platform/auth/tokens';
import { zodFieldErrors } from '@wagers/platform/http/problem';
import { commandContext } from '../context.ts';
import type { CommandServiceDeps } from '../deps.ts';
import { loadUserView } from '../users/load-user.ts';
import { answeredPausedSignIn, signInByEmail } from '../users/register.ts';
import { keepProviderName } from './keep-name.ts';
import { LINK_BROWSER_COOKIE, LINK_TTL_MS, type LoginLinks } from './login-links.ts';
import { checkEmailPage, providerEmailPage, providerProblemPage } from './pages.ts';
import { ProviderFlows } from './provider-flows.ts';
import type { ProviderIdentity, SignInProvider } from './providers/index.ts';
import { sendSignInLink, TOO_MANY_LINKS } from './send-link.ts';

const FLOW_MAX_AGE_MS = 10 * 60 * 1000;

function safeRedirect(value: unknown): string | null {
  const parsed = localRedirectSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

const flowCookie = (provider: SignInProvider) => `wagers_oauth_${provider.id}`;

/**
 * Provider sign-in through openid-client: the authorization-code flow with state, PKCE and (for
 * OpenID providers) a nonce, bound to the browser that began it. The account is the one that owns
 * the provider's verified email, so any provider and the email link reach the same person.
 */
export function oauthRouter(
  deps: CommandServiceDeps,
  providers: SignInProvider[],
  links: LoginLinks,
): Router {
  const router = Router();
  const flows = new ProviderFlows(deps.pool);
  const byId = new Map(providers.map((provider) => [provider.id as string, provider]));
  const find = (req: Request) => byId.get(String(req.params.provider));
  const callbackUrl = (provider: SignInProvider) =>
    `${deps.publicUrl()}/api/login/${provider.id}/callback`;
  const retry = (provider: SignInProvider, redirect: string | null) => ({
    name: provider.name,
    href: `/api/login/${provider.id}${redirect ? `?redirect=${encodeURIComponent(redirect)}` : ''}`,
  });
  const fail = (
    res: Response,
    provider: SignInProvider,
    message: string,
    redirect: string | null = null,
  ) =>
    res
      .status(400)
      .type('html')
      .send(providerProblemPage(message, retry(provider, redirect)));

  /**
   * Signs in the account that owns `email`, ending the session this browser had once the new one
   * stands; null when the sign-in was refused for now, with the page that says so sent and the
   * browser's session left as it was.
   */
  async function signInAs(
    req: Request,
    res: Response,
    email: string,
    provider: SignInProvider,
    redirect: string | null,
  ) {
    try {
      return await signInByEmail(
        deps,
        email,
        commandContext(req, deps.runtime),
        res,
        req.userId ? sessionToken(req.headers.cookie) : null,
      );
    } catch (error) {
      const page = (message: string) => providerProblemPage(message, retry(provider, redirect));
      if (answeredPausedSignIn(error, res, page)) return null;
      throw error;
    }
  }

  router.get('/api/login/:provider', async (req, res, next) => {
    const provider = find(req);
    if (!provider) return next();
    const redirect = safeRedirect(req.query.redirect);
    let configuration: client.Configuration;
    try {
      configuration = await provider.configuration();
    } catch (error) {
      req.log.warn({ err: error, provider: provider.id }, 'provider could not be reached');
      return fail(res, provider, `${provider.name} cannot be reached right now.`);
    }
    const codeVerifier = client.randomPKCECodeVerifier();
    const flow = {
      state: client.randomState(),
      codeVerifier,
      nonce: provider.openid ? client.randomNonce() : null,
    };
    const browserToken = await flows.start(provider.id, flow, redirect, deps.runtime.now());
    res.cookie(flowCookie(provider), browserToken, {
      httpOnly: true,
      sameSite: 'lax',
      secure: deps.config.production,
      path: '/api/login',
      maxAge: FLOW_MAX_AGE_MS,
    });
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: callbackUrl(provider),
      scope: provider.scope,
      state: flow.state,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      ...(flow.nonce ? { nonce: flow.nonce } : {}),
      ...(provider.formPost ? { response_mode: 'form_post' } : {}),
    });
    res.redirect(303, url.href);
  });

  // A form_post provider posts from its own site, so this browser's cookies do not come along
  // (SameSite=Lax): keep what was posted and send the browser on to the callback by GET.
  router.post(
    '/api/login/:provider/callback',
    express.urlencoded({ extended: false, limit: '20kb' }),
    async (req, res, next) => {
      const provider = find(req);
      if (!provider?.formPost) return next();
      const posted = new URLSearchParams(req.body as Record<string, string>);
      const state = posted.get('state') ?? '';
      const kept = await flows.keepPosted(
        provider.id,
        state,
        posted.toString(),
        deps.runtime.now(),
      );
      if (!kept) return fail(res, provider, `This ${provider.name} sign-in was already used.`);
      res.redirect(303, `/api/login/${provider.id}/callback?state=${encodeURIComponent(state)}`);
    },
  );

  router.get('/api/login/:provider/callback', async (req, res, next) => {
    const provider = find(req);
    if (!provider) return next();
    const state = typeof req.query.state === 'string' ? req.query.state : '';
    const browserToken = readCookie(req.headers.cookie, flowCookie(provider));
    const flow = await flows.finish(provider.id, state, browserToken, deps.runtime.now());
    if (!flow)
      return fail(
        res,
        provider,
        `This ${provider.name} sign-in was already used, has expired, or was begun in another browser.`,
      );
    res.clearCookie(flowCookie(provider), { path: '/api/login' });

    let identity: ProviderIdentity;
    try {
      const configuration = await provider.configuration();
      const current = flow.posted
        ? new Request(callbackUrl(provider), {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: flow.posted,
          })
        : new URL(`${callbackUrl(provider)}${new URL(req.originalUrl, 'http://local').search}`);
      const tokens = await client.authorizationCodeGrant(configuration, current, {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: state,
        expectedNonce: flow.nonce ?? undefined,
        idTokenExpected: provider.openid,
      });
      identity = await provider.identity(configuration, tokens, flow.posted);
    } catch (error) {
      req.log.warn({ err: error, provider: provider.id }, 'provider did not confirm the sign-in');
      return fail(res, provider, `${provider.name} did not confirm the sign-in.`, flow.redirect);
    }

    if (identity.email !== null) {
      const email = emailSchema.safeParse(identity.email);
      if (!identity.emailVerified || !email.success)
        return fail(
          res,
          provider,
          `Your ${provider.name} account has no verified email address. Sign in with an email link instead.`,
          flow.redirect,
        );
      const signedIn = await signInAs(req, res, email.data, provider, flow.redirect);
      if (!signedIn) return;
      const { userId } = signedIn;
      await flows.link(provider.id, identity.subject, userId);
      await keepProviderName(deps, userId, identity, commandContext(req, deps.runtime));
      req.log.info({ userId, provider: provider.id }, 'signed in');
      return res.redirect(303, safeRedirect(flow.redirect) ?? '/');
    }

    const linked = await flows.linkedUser(provider.id, identity.subject);
    const linkedEmail = linked ? (await loadUserView(deps.store, linked))?.email : null;
    if (linkedEmail) {
      const signedIn = await signInAs(req, res, linkedEmail, provider, flow.redirect);
      if (!signedIn) return;
      const { userId } = signedIn;
      req.log.info({ userId, provider: provider.id }, 'signed in');
      return res.redirect(303, safeRedirect(flow.redirect) ?? '/');
    }
    const pending = await flows.awaitEmail(
      provider.id,
      identity.subject,
      flow.redirect,
      deps.runtime.now(),
    );
    res
      .type('html')
      .send(providerEmailPage({ providerId: provider.id, providerName: provider.name, pending }));
  });

  router.post(
    '/api/login/:provider/email',
    express.urlencoded({ extended: false, limit: '10kb' }),
    async (req, res, next) => {
      const provider = find(req);
      if (!provider) return next();
      const body = req.body as { pending?: unknown; email?: unknown };
      const pendingToken = typeof body.pending === 'string' ? body.pending : '';
      const page = (status: number, error: string) =>
        res
          .status(status)
          .type('html')
          .send(
            providerEmailPage({
              providerId: provider.id,
              providerName: provider.name,
              pending: pendingToken,
              error,
              email: typeof body.email === 'string' ? body.email : '',
            }),
          );
      const parsed = providerEmailRequestSchema.safeParse(body);
      const waiting = parsed.success
        ? await flows.pending(provider.id, parsed.data.pending, deps.runtime.now())
        : null;
      if (!parsed.success) {
        return page(400, zodFieldErrors(parsed.error)[0]?.message ?? 'Enter a valid email');
      }
      if (!waiting) return fail(res, provider, `This ${provider.name} sign-in has expired.`, null);
      // Anyone may type any address here: the account is linked only if the link is confirmed in
      // this browser, so its owner cannot be made to take in a stranger's provider account.
      const browserToken = newToken();
      const sent = await sendSignInLink(deps, links, parsed.data.email, waiting.redirect, {
        identity: { provider: provider.id, subject: waiting.subject },
        browserToken,
      });
      if (!sent.sent) {
        res.set('Retry-After', String(sent.retryAfterSeconds));
        return page(429, TOO_MANY_LINKS);
      }
      res.cookie(LINK_BROWSER_COOKIE, browserToken, {
        httpOnly: true,
        sameSite: 'lax',
        secure: deps.config.production,
        path: '/api/login',
        maxAge: LINK_TTL_MS,
      });
      req.log.info({ provider: provider.id }, 'sign-in link sent to confirm an email');
      res.type('html').send(checkEmailPage(parsed.data.email, deps.config.devInbox));
    },
  );

  return router;
}

/** Remembers the provider's id for the person once the email they gave is confirmed. */
export function linkConfirmedIdentity(
  deps: CommandServiceDeps,
  identity: { provider: string; subject: string },
  userId: string,
): Promise<void> {
  return new ProviderFlows(deps.pool).link(identity.provider, identity.subject, userId);
}
