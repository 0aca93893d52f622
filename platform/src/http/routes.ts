import type { Express } from 'express';

export interface MountedRoute {
  method: string;
  path: string;
}

interface Layer {
  rawPath?: unknown;
  route?: { path: unknown; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
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
