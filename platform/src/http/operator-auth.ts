import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** HTTP basic auth against one operator credential, compared in constant time. */
export function operatorAuth(user: string, password: string): RequestHandler {
  const expected = digest(`${user}:${password}`);
  return (req, res, next) => {
    const header = req.header('authorization') ?? '';
    const encoded = /^Basic\s+(\S+)$/i.exec(header)?.[1];
    const given = encoded ? Buffer.from(encoded, 'base64').toString('utf8') : '';
    if (encoded && timingSafeEqual(digest(given), expected)) {
      next();
      return;
    }
    res.setHeader('WWW-Authenticate', 'Basic realm="Wagers operators", charset="UTF-8"');
    res.status(401).type('text/plain').send('Operator credentials required');
  };
}
