import { createRequire } from 'node:module';
import path from 'node:path';
import express, { Router } from 'express';
import { openApiDocument } from '@wagers/contracts/openapi/document';

const swaggerUi = path.dirname(
  createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'),
);

// Scripts come from this site only (no CDN, nothing inline), so a strict script-src 'self' holds.
const referencePage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Wagers API</title>
<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/api/docs/assets/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script>
</body>
</html>`;

const init = `window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
});
`;

/** The API document at /api/openapi.json and a readable reference of it at /api/docs. */
export function apiDocsRouter(): Router {
  const router = Router();
  const document = openApiDocument();
  router.get('/api/openapi.json', (_req, res) => {
    res.json(document);
  });
  router.get('/api/docs', (_req, res) => {
    res.type('html').send(referencePage);
  });
  router.get('/api/docs/init.js', (_req, res) => {
    res.type('text/javascript').send(init);
  });
  router.use('/api/docs/assets', express.static(swaggerUi, { index: false, maxAge: '1d' }));
  return router;
}
