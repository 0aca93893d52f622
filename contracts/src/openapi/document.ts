import { z } from 'zod';
import { problemSchema } from '../problem.ts';
import type { DocumentedResponse, DocumentedRoute } from './route.ts';
import { documentedRoutes } from './routes.ts';

export type JsonSchema = Record<string, unknown>;

/** JSON Schema (2020-12, as OpenAPI 3.1 uses) of a zod schema; what a check or transform cannot say is left open. */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
}

/** `/api/bets/:id` as OpenAPI writes it: `/api/bets/{id}`. */
export const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

const problemRef = { $ref: '#/components/schemas/Problem' };

function content(response: DocumentedResponse): Record<string, unknown> | undefined {
  const media: Record<string, unknown> = {};
  if (response.json) media['application/json'] = { schema: jsonSchema(response.json, 'output') };
  if (response.media) media[response.media] = { schema: { type: 'string' } };
  return Object.keys(media).length > 0 ? media : undefined;
}

function operation(route: DocumentedRoute): Record<string, unknown> {
  const parameters = [
    ...[...route.path.matchAll(/:(\w+)/g)].map((match) => ({
      name: match[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    })),
    ...Object.entries(route.query?.shape ?? {}).map(([name, schema]) => ({
      name,
      in: 'query',
      required: !(schema as z.ZodType).safeParse(undefined).success,
      schema: jsonSchema(schema as z.ZodType, 'input'),
    })),
    ...(route.idempotent
      ? [
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            description:
              'Any 1 to 255 visible characters, new for each new request: a retry with the same key and body answers like the first and makes nothing new; the same key with another body is refused with 409.',
            schema: { type: 'string', minLength: 1, maxLength: 255 },
          },
        ]
      : []),
  ];
  const responses: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(route.responses)) {
    responses[status] = {
      description: response.description,
      ...(content(response) ? { content: content(response) } : {}),
      ...(response.redirect
        ? { headers: { Location: { schema: { type: 'string' }, required: true } } }
        : {}),
    };
  }
  responses.default = {
    description:
      'A problem: bad input, not signed in, not allowed, not found, conflict, or a fault',
    content: { 'application/problem+json': { schema: problemRef } },
  };
  const body = route.body ? jsonSchema(route.body, 'input') : null;
  return {
    summary: route.summary,
    tags: [route.tag],
    operationId: `${route.method}${openApiPath(route.path).replace(/[^\w]+(\w)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body
      ? {
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: body },
              ...(route.form ? { 'application/x-www-form-urlencoded': { schema: body } } : {}),
            },
          },
        }
      : {}),
    ...(route.signedIn ? { security: [{ session: [] }] } : {}),
    responses,
  };
}

/** The OpenAPI 3.1 document of the HTTP API, generated from the contracts' zod schemas. */
export function openApiDocument(routes: DocumentedRoute[] = documentedRoutes): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = (paths[openApiPath(route.path)] ??= {});
    path[route.method] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Wagers API',
      version: '1.0.0',
      description:
        'Friendly bets between friends. Writes answer with an x-wagers-position header; send it back on reads to see your own writes.',
    },
    servers: [{ url: '/' }],
    tags: [...new Set(routes.map((route) => route.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: { Problem: jsonSchema(problemSchema, 'output') },
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'wagers_session' },
      },
    },
  };
}
