import type { Express, RequestHandler, Router } from 'express';

export interface MountedRoute {
  method: string;
  path: string;
}

interface Layer {
  rawPath?: unknown;
  route?: { path: unknown; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
  /** What of the path the layer takes (its mount path), or false when it does not match. */
  match?: (path: string) => { path: string } | false;
}

/** Every route an Express app serves, found by walking its routers (mount paths included). */
export function mountedRoutes(app: Express): MountedRoute[] {
  const walk = (stack: Layer[], prefix: string): MountedRoute[] =>
    stack.flatMap((layer) => {
      if (layer.route && typeof layer.route.path === 'string') {
        const path = `${prefix}${layer.route.path}`;
        return Object.keys(layer.route.methods)
          .filter((method) => method !== '_all')
          .map((method) => ({ method, path }));
      }
      if (!layer.handle?.stack) return [];
      const mount = typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : '';
      return walk(layer.handle.stack, `${prefix}${mount}`);
    });
  return walk((app as unknown as { router: { stack: Layer[] } }).router.stack, '');
}

/**
 * Whether anything in `stack` would see a `method` call to `path`: a route for the method, a
 * router holding one under its mount path, or any other middleware mounted on the path.
 */
function acts(stack: Layer[], method: string, path: string): boolean {
  return stack.some((layer) => {
    let matched: { path: string } | false;
    try {
      matched = layer.match?.(path) ?? false;
    } catch {
      // A path the router cannot decode: let the router itself answer it as it always has.
      return true;
    }
    if (!matched) return false;
    if (layer.route) {
      const { methods } = layer.route;
      return Boolean(methods._all || methods[method] || (method === 'head' && methods.get));
    }
    if (layer.handle?.stack) {
      return acts(layer.handle.stack, method, path.slice(matched.path.length) || '/');
    }
    return true;
  });
}

/**
 * Put first in a router that answers few reads: a GET or HEAD that nothing in `served` would see
 * leaves the router at once, instead of being walked through every layer and nested router (each
 * of which Express leaves on a later turn of the event loop). Other methods go through as ever.
 */
export function leaveUnservedReads(served: Router): RequestHandler {
  const stack = (served as unknown as { stack: Layer[] }).stack;
  return (req, _res, next) => {
    const method = req.method.toLowerCase();
    if ((method === 'get' || method === 'head') && !acts(stack, method, req.path)) {
      next('router');
    } else {
      next();
    }
  };
}
