import express, { Router, type Request, type Response } from 'express';
import {
  emailLoginRequestSchema,
  localRedirectSchema,
  loginConfirmRequestSchema,
} from '@wagers/contracts/api/auth';
import { readCookie } from '@wagers/platform/auth/cookies';
import { sessionToken } from '@wagers/platform/auth/sessions';
import { zodFieldErrors } from '@wagers/platform/http/problem';
import { problem } from '@wagers/platform/http/problem';
import { fromOwnSite } from '@wagers/platform/http/same-site';
import { commandContext } from '../context.ts';
import type { CommandServiceDeps } from '../deps.ts';
import { answeredPausedSignIn, signInByEmail } from '../users/register.ts';
import { LINK_BROWSER_COOKIE, LoginLinks } from './login-links.ts';
import { waitForRegistration } from './keep-name.ts';
import { linkConfirmedIdentity, oauthRouter } from './oauth.ts';
import { configuredProviders } from './providers/index.ts';
import { sendSignInLink, TOO_MANY_LINKS } from './send-link.ts';
import {
  checkEmailPage,
  confirmSignInPage,
  linkProblemPage,
  loginPage,
  logoutPage,
  type Provider,
} from './pages.ts';

function safeRedirect(value: unknown): string | undefined {
  const parsed = localRedirectSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

function expiredLink(res: Response): void {
  res
    .status(400)
    .type('html')
    .send(linkProblemPage('This sign-in link has expired or was already used.'));
}

/** Email sign-in: a page, a single-use link by email, a session cookie. */
export function authRouter(deps: CommandServiceDeps): Router {
  const router = Router();
  const links = new LoginLinks(deps.pool);
  const configured = configuredProviders(deps.config);
  const providers = (redirect?: string): Provider[] =>
    configured.map((provider) => ({
      name: provider.name,
      href: `/api/login/${provider.id}${redirect ? `?redirect=${encodeURIComponent(redirect)}` : ''}`,
    }));
  router.use(oauthRouter(deps, configured, links));

  router.get('/api/login', (req, res) => {
    const redirect = safeRedirect(req.query.redirect);
    if (req.userId) {
      res.redirect(303, redirect ?? '/');
      return;
    }
    res.type('html').send(loginPage({ redirect, providers: providers(redirect) }));
  });

  router.post(
    '/api/login/email',
    express.urlencoded({ extended: false, limit: '10kb' }),
    async (req, res) => {
      const fromForm = req.is('application/x-www-form-urlencoded') !== false;
      const body: unknown = req.body;
      const parsed = emailLoginRequestSchema.safeParse(body);
      if (!parsed.success) {
        const errors = zodFieldErrors(parsed.error);
        const message = errors[0]?.message ?? 'Enter a valid email address';
        if (fromForm) {
          const raw = body as { email?: unknown; redirect?: unknown };
          res
            .status(400)
            .type('html')
            .send(
              loginPage({
                error: message,
                email: typeof raw.email === 'string' ? raw.email : '',
                redirect: safeRedirect(raw.redirect),
                providers: providers(safeRedirect(raw.redirect)),
              }),
            );
        } else {
          res
            .status(400)
            .type('application/problem+json')
            .json(problem('validation_failed', message, errors));
        }
        return;
      }
      const { email, redirect } = parsed.data;
      const sent = await sendSignInLink(deps, links, email, redirect ?? null);
      if (!sent.sent) {
        res.set('Retry-After', String(sent.retryAfterSeconds));
        if (fromForm) {
          res
            .status(429)
            .type('html')
            .send(
              loginPage({ error: TOO_MANY_LINKS, email, redirect, providers: providers(redirect) }),
            );
        } else {
          res
            .status(429)
            .type('application/problem+json')
            .json(problem('rate_limited', TOO_MANY_LINKS));
        }
        return;
      }
      req.log.info('sign-in link sent');
      if (fromForm) res.type('html').send(checkEmailPage(email, deps.config.devInbox));
      else res.status(202).json({ status: 'sent' });
    },
  );

  router.get('/api/login/verify', async (req, res) => {
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    const browserToken = readCookie(req.headers.cookie, LINK_BROWSER_COOKIE);
    const pending = token ? await links.peek(token, deps.runtime.now(), browserToken) : null;
    if (!pending) return expiredLink(res);
    const signedIn = req.userId ? await waitForRegistration(deps, req.userId) : null;
    const current = signedIn
      ? { email: signedIn.status === 'registered' ? signedIn.email : null }
      : null;
    const provider = configured.find((known) => known.id === pending.linking?.provider);
    const linking =
      pending.linking && provider ? { provider: provider.name, here: pending.linking.here } : null;
    res.type('html').send(confirmSignInPage({ email: pending.email, token, current, linking }));
  });

  router.post(
    '/api/login/verify',
    express.urlencoded({ extended: false, limit: '10kb' }),
    async (req, res) => {
      const parsed = loginConfirmRequestSchema.safeParse(req.body);
      const browserToken = readCookie(req.headers.cookie, LINK_BROWSER_COOKIE);
      const usedAt = deps.runtime.now();
      const redeemed = parsed.success
        ? await links.redeem(parsed.data.token, usedAt, browserToken)
        : null;
      if (!parsed.success || !redeemed) return expiredLink(res);
      let signedIn: { userId: string; newAccount: boolean };
      try {
        // The session this browser had ends once the new one stands: the person confirmed who
        // they become.
        signedIn = await signInByEmail(
          deps,
          redeemed.email,
          commandContext(req, deps.runtime),
          res,
          req.userId ? sessionToken(req.headers.cookie) : null,
        );
      } catch (error) {
        if (answeredPausedSignIn(error, res, linkProblemPage)) {
          // Refused for now, with no session made and the browser's own left as it was: the same
          // link works once the pause is over.
          await links.giveBack(parsed.data.token, usedAt);
          return;
        }
        throw error;
      }
      if (redeemed.identity) res.clearCookie(LINK_BROWSER_COOKIE, { path: '/api/login' });
      const { userId, newAccount } = signedIn;
      if (redeemed.identity) await linkConfirmedIdentity(deps, redeemed.identity, userId);
      req.log.info({ userId, newAccount }, 'signed in');
      res.redirect(303, safeRedirect(redeemed.redirect) ?? '/');
    },
  );

  const logOut = async (req: Request, res: Response): Promise<void> => {
    await deps.sessions.destroy(sessionToken(req.headers.cookie), res);
    res.redirect(303, '/');
  };

  // Opening the logout address logs out, unless a page of another site sent the browser here (a
  // link, an image) or the browser only fetches it ahead (a prefetch or prerender): those get a
  // page whose button posts. A HEAD changes nothing.
  router.get('/api/logout', async (req, res) => {
    const ahead = req.header('sec-purpose') !== undefined || req.header('purpose') !== undefined;
    if (req.method === 'GET' && !ahead && fromOwnSite(req, deps.publicUrl())) {
      await logOut(req, res);
      return;
    }
    res.type('html').send(logoutPage(Boolean(req.userId)));
  });

  router.post('/api/logout', logOut);

  return router;
}
