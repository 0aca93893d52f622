import type { z } from 'zod';

export type Method = 'get' | 'post' | 'put' | 'delete' | 'patch';

/** One answer of a route: a JSON body by its zod schema, or a body of another media type. */
export interface DocumentedResponse {
  description: string;
  json?: z.ZodType;
  media?: 'text/html' | 'text/plain' | 'text/javascript' | 'text/xml';
  /** 303 See Other to the Location header. */
  redirect?: true;
}

/** A mounted route as the API document describes it; `path` is written as Express writes it. */
export interface DocumentedRoute {
  method: Method;
  path: string;
  summary: string;
  tag: string;
  /** Needs the session cookie. */
  signedIn?: boolean;
  /** A JSON body; `form: true` also takes it as an HTML form post. */
  body?: z.ZodType;
  form?: boolean;
  query?: z.ZodObject;
  /** Takes an Idempotency-Key header: a retry with the same key and body answers like the first. */
  idempotent?: boolean;
  responses: Record<number, DocumentedResponse>;
}

/** Helpers that keep a route's documentation to one line next to the schemas it uses. */
export const json = (schema: z.ZodType, description = 'OK'): DocumentedResponse => ({
  description,
  json: schema,
});
export const page = (description: string): DocumentedResponse => ({
  description,
  media: 'text/html',
});
export const seeOther = (description: string): DocumentedResponse => ({
  description,
  redirect: true,
});

type RouteOptions = Omit<DocumentedRoute, 'method' | 'path' | 'summary' | 'tag' | 'responses'>;

export const route =
  (tag: string) =>
  (
    method: Method,
    path: string,
    summary: string,
    responses: Record<number, DocumentedResponse>,
    options: RouteOptions = {},
  ): DocumentedRoute => ({ method, path, summary, tag, responses, ...options });
