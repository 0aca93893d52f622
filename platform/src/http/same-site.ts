import type { Request, RequestHandler } from 'express';
import { forbidden } from '../errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/**
 * Where another site posts by design: a provider answering with response_mode=form_post (Apple).
 * The callback checks its own state, nonce and PKCE and the flow cookie, so it needs no Origin.
 */
const CROSS_SITE_POSTS = /^\/api\/login\/[a-z]+\/callback$/;

/**
 * Refuses a state-changing request that a page of another site made with the visitor's cookie,
 * whatever its content type (a body-less POST never meets the JSON parser). Browsers say where a
 * request comes from in Sec-Fetch-Site, and in Origin on every cross-site POST (and, a browser
 * sending neither, in Referer); a caller that says none of it (curl, a script, a webhook) is no
 * browser carrying someone's cookie, so it passes. Headers only: no I/O per request.
 */
export function sameSiteOnly(publicUrl: () => string): RequestHandler {
  return (req, _res, next) => {
    if (SAFE_METHODS.has(req.method) || CROSS_SITE_POSTS.test(req.path)) {
      next();
      return;
    }
    if (!fromOwnSite(req, publicUrl())) {
      throw forbidden('This request came from another site and was refused');
    }
    next();
  };
}

/**
 * Whether a request comes from a page of this site, from the person themselves (Sec-Fetch-Site
 * none: the address bar, a bookmark), or from a caller that says nothing of where it comes from
 * (neither Sec-Fetch-Site, Origin nor Referer: curl, a script), rather than from a page of another
 * site. A browser too old to send Sec-Fetch-Site (Safari before 16.4) sends no Origin either when
 * a link on another site opens an address: there its Referer names that site.
 */
export function fromOwnSite(req: Request, publicUrl: string): boolean {
  const site = req.header('sec-fetch-site');
  if (site === 'same-origin' || site === 'none') return true;
  const own = (origin: string) => isOwnOrigin(origin, publicUrl, `${req.protocol}://${req.host}`);
  const origin = req.header('origin');
  if (origin !== undefined) return own(origin);
  if (site !== undefined) return false;
  const referer = req.header('referer');
  return referer === undefined || own(originOf(referer));
}

/** The origin of `url`; "null", which is no site's, for what is not a URL. */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'null';
  }
}

function isOwnOrigin(origin: string, publicUrl: string, requestOrigin: string): boolean {
  return origin !== 'null' && [publicUrl, requestOrigin].map(originOf).includes(origin);
}

/**
 * Refuses a read that another site sent the visitor's browser to (a link, a redirect, an image):
 * for reads that record something of themselves, such as an auditor's look at a bet, which must
 * not be written to their trail by a page that merely pointed their browser there. The SameSite
 * cookie still comes along on such a top-level navigation. Where the request comes from is told
 * as for a logout (`fromOwnSite`: Sec-Fetch-Site, else Origin, else Referer); a caller that says
 * nothing of where it comes from (curl, a script) is no browser sent by another site, so it passes.
 */
export function ownSiteReadsOnly(publicUrl: () => string): RequestHandler {
  return (req, _res, next) => {
    if (!fromOwnSite(req, publicUrl()))
      throw forbidden('A look at this comes from this site alone; open it here');
    next();
  };
}
