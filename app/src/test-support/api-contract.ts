import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { openApiDocument, openApiPath } from '@wagers/contracts/openapi/document';
import { documentedRoutes } from '@wagers/contracts/openapi/routes';
import type { DocumentedRoute } from '@wagers/contracts/openapi/route';

type Schema = Record<string, unknown>;
type Operation = {
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
};

const document = openApiDocument();
const ajv = new Ajv2020({ strict: false, allErrors: true });
// ajv-formats is CommonJS: its plugin is the module itself.
(formats as unknown as (ajv: Ajv2020) => Ajv2020)(ajv);
ajv.addSchema(document, 'openapi');

const matchers = documentedRoutes.map((route) => ({
  route,
  pattern: new RegExp(`^${route.path.replace(/:\w+/g, '[^/]+')}$`),
  // A literal segment beats a parameter: /api/login/verify is not a provider.
  params: (route.path.match(/:\w+/g) ?? []).length,
}));

function documentedRoute(method: string, path: string): DocumentedRoute | null {
  const candidates = matchers
    .filter((m) => m.route.method === method.toLowerCase() && m.pattern.test(path))
    .sort((a, b) => a.params - b.params);
  return candidates[0]?.route ?? null;
}

/**
 * Checks an answer the API gave against the OpenAPI document, through the JSON Schema the
 * document holds (not the zod schema it was made from). Throws when the route, the status or the
 * body is not what the document says.
 */
export function checkAgainstDocument(
  method: string,
  url: string,
  status: number,
  contentType: string,
  body: unknown,
): void {
  const path = new URL(url, 'http://local').pathname;
  // Pages of the web app, pictures and the development pages are not the API.
  if (!path.startsWith('/api/') && !operationsPaths.includes(path)) return;
  const media = contentType.split(';')[0]?.trim() ?? '';
  const route = documentedRoute(method, path);
  const where = `${method} ${path} answered ${status} ${media}`;
  const isProblem = media === 'application/problem+json';
  if (!route) {
    // Unknown API paths answer 404 with a problem, or 400 when the edge refuses the path itself
    // (broken encoding, a NUL): the document's default response covers both.
    if (path.startsWith('/api/') && (status === 404 || status === 400) && isProblem) {
      return check(problemRef, body);
    }
    throw new Error(`${where}: the route is not in the API document`);
  }
  if (isProblem && status >= 400) return check(problemRef, body, where);
  const operationPointer = `#/paths/${pointer(openApiPath(route.path))}/${route.method}`;
  const paths = document.paths as Record<string, Record<string, Operation>>;
  const documented = paths[openApiPath(route.path)]?.[route.method]?.responses[String(status)];
  if (!documented) throw new Error(`${where}: the document has no ${status} for this route`);
  const mediaTypes = Object.keys(documented.content ?? {});
  if (mediaTypes.length === 0) return;
  if (!mediaTypes.includes(media))
    throw new Error(`${where}: the document says ${mediaTypes.join(' or ')}`);
  if (media === 'application/json')
    check(
      `openapi${operationPointer}/responses/${status}/content/application~1json/schema`,
      body,
      where,
    );
}

const problemRef = 'openapi#/components/schemas/Problem';
const operationsPaths = ['/healthz', '/readyz', '/metrics'];
const pointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

function check(ref: string, body: unknown, where = ''): void {
  const validate = ajv.getSchema(ref);
  if (!validate) throw new Error(`no schema at ${ref}`);
  if (!validate(body))
    throw new Error(
      `${where}: the body does not match the documented schema: ${ajv.errorsText(validate.errors)}`,
    );
}
