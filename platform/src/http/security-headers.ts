import helmet from 'helmet';
import type { Request, RequestHandler, Response } from 'express';

export interface SecurityHeaderOptions {
  production: boolean;
  /** Origins besides this one that pages load pictures from or upload to (an S3 bucket). */
  uploadOrigins: string[];
}

/** Where browsers upload avatars to and read them from, when they live in an S3 bucket. */
export function avatarBucketOrigins(config: {
  S3_BUCKET?: string;
  S3_ENDPOINT?: string;
  S3_PUBLIC_URL?: string;
  S3_REGION: string;
}): string[] {
  if (!config.S3_BUCKET) return [];
  const urls = [
    config.S3_PUBLIC_URL,
    config.S3_ENDPOINT ?? `https://${config.S3_BUCKET}.s3.${config.S3_REGION}.amazonaws.com`,
    config.S3_ENDPOINT ? undefined : `https://s3.${config.S3_REGION}.amazonaws.com`,
  ];
  return [...new Set(urls.flatMap((url) => (url ? [new URL(url).origin] : [])))];
}

/**
 * helmet's headers on every response, with a Content-Security-Policy the built web app meets:
 * scripts only from this origin, no framing by anyone, pictures and uploads from here or the
 * avatar bucket. Inline styles stay allowed because the UI kit positions popovers with style
 * attributes and the server-rendered pages carry one style block. HSTS only in production,
 * where the site is served over HTTPS.
 */
export function securityHeaders(options: SecurityHeaderOptions): RequestHandler {
  const headers = headersSet(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          'default-src': ["'self'"],
          'base-uri': ["'self'"],
          'script-src': ["'self'"],
          'style-src': ["'self'", "'unsafe-inline'"],
          'img-src': ["'self'", 'data:', 'blob:', ...options.uploadOrigins],
          'connect-src': ["'self'", ...options.uploadOrigins],
          'font-src': ["'self'", 'data:'],
          'form-action': ["'self'"],
          'frame-ancestors': ["'none'"],
          'object-src': ["'none'"],
          ...(options.production ? { 'upgrade-insecure-requests': [] } : {}),
        },
      },
      // Avatars in the local store are read by pages of this site only; same-site is enough.
      crossOriginResourcePolicy: { policy: 'same-site' },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      strictTransportSecurity: options.production
        ? { maxAge: 365 * 24 * 3600, includeSubDomains: true }
        : false,
      xFrameOptions: { action: 'deny' },
    }),
  );
  return (_req, res, next) => {
    res.setHeaders(headers);
    next();
  };
}

/**
 * The headers a middleware sets when nothing in its options depends on the request, as helmet's
 * do here: worked out once, then set on every response in one call.
 */
function headersSet(middleware: RequestHandler): Map<string, string> {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: unknown) => headers.set(name, String(value)),
    removeHeader: (name: string) => headers.delete(name),
  };
  let done = false;
  void middleware({ headers: {} } as Request, recorder as unknown as Response, () => {
    done = true;
  });
  if (!done) throw new Error('the security headers depend on the request');
  return headers;
}
