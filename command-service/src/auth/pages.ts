import { escapeHtml } from '@wagers/platform/html';
function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Wagers</title>
<style>
  :root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f8fafc; color: #0f172a; }
  main { box-sizing: border-box; width: min(420px, calc(100vw - 32px)); background: #fff; border: 1px solid #e2e8f0; border-radius: 12px; padding: 32px 24px; box-shadow: 0 1px 3px rgba(15,23,42,.08); }
  h1 { font-size: 1.5rem; margin: 0 0 8px; }
  p { color: #334155; line-height: 1.5; }
  a.logo { display: inline-block; font-weight: 700; color: #4338ca; text-decoration: none; margin-bottom: 16px; font-size: 1.1rem; }
  label { display: block; font-weight: 600; margin: 16px 0 6px; }
  input[type=email] { width: 100%; box-sizing: border-box; padding: 10px 12px; font-size: 1rem; border: 1px solid #94a3b8; border-radius: 8px; }
  input[type=email]:focus { outline: 3px solid #a5b4fc; border-color: #4338ca; }
  form.inline { margin: 0; }
  button, .provider { display: block; width: 100%; box-sizing: border-box; margin-top: 16px; padding: 11px 12px; font-size: 1rem; font-weight: 600; border-radius: 8px; border: 0; background: #4338ca; color: #fff; cursor: pointer; text-align: center; text-decoration: none; }
  .provider { background: #fff; color: #0f172a; border: 1px solid #94a3b8; }
  .error { color: #b91c1c; font-weight: 600; }
  .muted { color: #475569; font-size: .9rem; }
</style>
</head>
<body><main>
<a class="logo" href="/">Wagers</a>
${body}
</main></body>
</html>`;
}

export interface Provider {
  name: string;
  href: string;
}

export function loginPage(options: {
  redirect?: string;
  error?: string;
  email?: string;
  providers: Provider[];
}): string {
  const redirectField = options.redirect
    ? `<input type="hidden" name="redirect" value="${escapeHtml(options.redirect)}">`
    : '';
  const providers = options.providers
    .map(
      (p) =>
        `<a class="provider" href="${escapeHtml(p.href)}">Continue with ${escapeHtml(p.name)}</a>`,
    )
    .join('\n');
  return layout(
    'Sign in',
    `<h1>Sign in to Wagers</h1>
<p>Enter your email and we will send you a link that signs you in. New here? The same link creates your account.</p>
${options.error ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>` : ''}
<form method="post" action="/api/login/email">
  <label for="email">Email</label>
  <input id="email" name="email" type="email" autocomplete="email" required value="${escapeHtml(options.email ?? '')}" placeholder="you@example.com">
  ${redirectField}
  <button type="submit">Email me a sign-in link</button>
</form>
${providers}
<p class="muted">Wagers is for adults (18+). By signing in you agree to the <a href="/terms">Terms</a> and <a href="/privacy">Privacy Policy</a>.</p>`,
  );
}

export function checkEmailPage(email: string, devInbox: boolean): string {
  return layout(
    'Check your email',
    `<h1>Check your email</h1>
<p>We sent a sign-in link to <strong>${escapeHtml(email)}</strong>. It works once and expires in 15 minutes.</p>
${devInbox ? '<p class="muted">Development mode: the email is in the <a href="/dev/mail">development inbox</a>.</p>' : ''}
<p class="muted"><a href="/api/login">Use a different email</a></p>`,
  );
}

export function linkProblemPage(message: string): string {
  return layout(
    'Sign-in link',
    `<h1>That link did not work</h1>
<p class="error" role="alert">${escapeHtml(message)}</p>
<p><a href="/api/login">Send a new sign-in link</a></p>`,
  );
}

/**
 * The sign-in link lands here and only a POST signs in: mail scanners that fetch links use nothing,
 * and a link someone else sent cannot switch an open session without the person seeing whose it is.
 */
export function confirmSignInPage(options: {
  email: string;
  token: string;
  /** Who is signed in in this browser now: null for nobody, `email: null` when not yet known. */
  current: { email: string | null } | null;
  /**
   * The provider whose account the link carries, and whether this browser, the one that asked
   * for the link, would link it; null for a plain link.
   */
  linking?: { provider: string; here: boolean } | null;
}): string {
  const who = options.current?.email
    ? `as <strong>${escapeHtml(options.current.email)}</strong>`
    : 'to another account';
  const switching =
    options.current && options.current.email !== options.email
      ? `<p class="error" role="alert">You are signed in ${who}. Continuing signs you out of that account.</p>`
      : '';
  const provider = options.linking ? escapeHtml(options.linking.provider) : '';
  const linking = !options.linking
    ? ''
    : options.linking.here
      ? `<p>Your ${provider} account will be linked to it, so ${provider} signs you in next time.</p>`
      : `<p class="muted">This link was asked for while signing in with ${provider} in another browser. Signing in here links no ${provider} account: to link it, open the link in the browser that asked for it.</p>`;
  return layout(
    'Confirm sign-in',
    `<h1>Sign in as ${escapeHtml(options.email)}?</h1>
${switching}${linking}
<form method="post" action="/api/login/verify">
  <input type="hidden" name="token" value="${escapeHtml(options.token)}">
  <button type="submit">Sign in as ${escapeHtml(options.email)}</button>
</form>
<p class="muted">Did not ask for this link? Close this page and nothing happens.</p>`,
  );
}

/**
 * Where a link or image on another site pointing at the logout address lands (and a prefetch):
 * logging out then takes the person's own click.
 */
export function logoutPage(signedIn: boolean): string {
  return layout(
    'Log out',
    signedIn
      ? `<h1>Log out of Wagers?</h1>
<form method="post" action="/api/logout">
  <button type="submit">Log out</button>
</form>
<p class="muted"><a href="/">Stay signed in</a></p>`
      : `<h1>You are signed out</h1>
<p><a href="/api/login">Sign in</a></p>`,
  );
}

/** A provider sign-in that could not finish: says why and offers to start again. */
export function providerProblemPage(message: string, retry: Provider): string {
  return layout(
    'Sign-in',
    `<h1>Sign-in did not finish</h1>
<p class="error" role="alert">${escapeHtml(message)}</p>
<a class="provider" href="${escapeHtml(retry.href)}">Try again with ${escapeHtml(retry.name)}</a>
<p class="muted"><a href="/api/login">Other ways to sign in</a></p>`,
  );
}

/** The provider shared no email: the person gives one, and a link to it confirms it is theirs. */
export function providerEmailPage(options: {
  providerId: string;
  providerName: string;
  pending: string;
  error?: string;
  email?: string;
}): string {
  return layout(
    'Your email',
    `<h1>One more step</h1>
<p>${escapeHtml(options.providerName)} did not share an email address with us. Enter yours and we will send a link to confirm it.</p>
${options.error ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>` : ''}
<form method="post" action="/api/login/${escapeHtml(options.providerId)}/email">
  <input type="hidden" name="pending" value="${escapeHtml(options.pending)}">
  <label for="email">Email</label>
  <input id="email" name="email" type="email" autocomplete="email" required value="${escapeHtml(options.email ?? '')}" placeholder="you@example.com">
  <button type="submit">Email me a link</button>
</form>`,
  );
}
