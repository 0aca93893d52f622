import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument, openApiPath } from '@wagers/contracts/openapi/document';
import { startTestApp, type TestApp } from './test-support/test-app.ts';

/** The operations endpoints are documented with the API; pages and files are not. */
const isApi = (path: string) =>
  path.startsWith('/api/') || ['/healthz', '/readyz', '/metrics'].includes(path);

describe('the API document', () => {
  let app: TestApp;
  beforeAll(async () => {
    // Every optional part switched on, so every route the product can mount is mounted.
    app = await startTestApp({
      env: {
        GOOGLE_CLIENT_ID: 'id',
        GOOGLE_CLIENT_SECRET: 'secret',
        TWILIO_ACCOUNT_SID: 'AC00000000000000000000000000000000',
        TWILIO_AUTH_TOKEN: 'token',
        TWILIO_FROM_NUMBER: '+15005550006',
        OPERATOR_PASSWORD: 'a-long-operator-password',
      },
    });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('describes every route the services mount, and nothing they do not', async () => {
    const document = (
      await app.anonymous().get<{ paths: Record<string, object> }>('/api/openapi.json')
    ).body;
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const mounted = app
      .routes()
      .filter((route) => isApi(route.path))
      .map((route) => `${route.method.toUpperCase()} ${openApiPath(route.path)}`);
    expect(mounted.length).toBeGreaterThan(30);
    expect([...new Set(mounted)].sort()).toEqual([...new Set(documented)].sort());
  });

  it('is a valid OpenAPI 3.1 document, the same one the server serves', async () => {
    const served = (await app.anonymous().get<object>('/api/openapi.json')).body;
    expect(served).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
    const validator = new Validator();
    const result = await validator.validate(served as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('serves a reference page whose scripts all come from this site', async () => {
    const client = app.anonymous();
    const page = await client.get('/api/docs');
    expect(page.status).toBe(200);
    const scripts = [...page.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes = '', inline = ''] of scripts) {
      expect(inline.trim()).toBe('');
      const src = /src="([^"]+)"/.exec(attributes)?.[1] ?? '';
      expect(src).toMatch(/^\/api\/docs\//);
      const asset = await fetch(`${app.url}${src}`);
      expect(asset.status, src).toBe(200);
      expect(asset.headers.get('content-type')).toContain('javascript');
    }
    const css = /<link rel="stylesheet" href="([^"]+)"/.exec(page.text)?.[1] ?? '';
    expect((await fetch(`${app.url}${css}`)).status).toBe(200);
  });
});
