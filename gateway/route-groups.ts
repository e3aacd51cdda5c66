/**
 * The gateway's routes, one @koa/router Router per group of paths: `/api/<name>/<version>` (core/v2, core/v3,
 * indexer/v1, ...) or, outside `/api`, the first segment (`/health`, `/dashboard`). @koa/router tests a request
 * against the regular expression of every route it holds (44 routes today, more with each API); here a request is
 * tested only against the routes of its own group, found by one lookup of its path's group key. Routes, 404 and 405
 * (with Allow) behave as with one router: @koa/router's default matching is case-insensitive and allows a trailing
 * slash, and the group key follows both.
 */
import { Router, type RouterMiddleware } from '@koa/router';
import type { Middleware } from 'koa';

/**
 * The group of a route pattern or a request path: lower-cased, its first three segments under `/api`, else its
 * first segment; `undefined` for a path of no group (the root).
 */
export function groupKey(path: string): string | undefined {
  const segments = path.toLowerCase().split('/', 5);
  if (segments[0] !== '' || !segments[1]) return undefined;
  if (segments[1] !== 'api') return `/${segments[1]}`;
  const parts = segments.slice(1, 4).filter((s) => s.length > 0);
  return `/${parts.join('/')}`;
}

/** Routers by group; routes are added with the verbs of a Router and served by `middleware()`. */
export class RouteGroups {
  private readonly routers = new Map<string, Router>();

  private routerOf(path: string): Router {
    const key = groupKey(path);
    if (key === undefined || key.includes(':')) throw new Error(`route ${path}: its group part may hold no parameter`);
    let router = this.routers.get(key);
    if (router === undefined) {
      router = new Router();
      this.routers.set(key, router);
    }
    return router;
  }

  get(path: string, handler: RouterMiddleware): this {
    this.routerOf(path).get(path, handler);
    return this;
  }

  post(path: string, handler: RouterMiddleware): this {
    this.routerOf(path).post(path, handler);
    return this;
  }

  delete(path: string, handler: RouterMiddleware): this {
    this.routerOf(path).delete(path, handler);
    return this;
  }

  /** The routes and the 405 answers of each group; a path of no group passes on (404). */
  middleware(): Middleware {
    const served = new Map<string, Middleware>();
    for (const [key, router] of this.routers) {
      // @koa/router types these for its own context; they are Koa middleware of any context
      const routes = router.routes() as unknown as Middleware;
      const allowed = router.allowedMethods() as unknown as Middleware;
      // as app.use(routes) then app.use(allowed): 405 / 501 once no route of the group answered
      served.set(key, (ctx, next) => routes(ctx, () => allowed(ctx, next)));
    }
    return (ctx, next) => {
      const key = groupKey(ctx.path);
      const serve = key === undefined ? undefined : served.get(key);
      return serve === undefined ? next() : serve(ctx, next);
    };
  }
}
