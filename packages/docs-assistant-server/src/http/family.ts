/**
 * A route family: one sub-app (`new Hono<ServiceEnv>()`) holding the routes of one kind of caller,
 * with its CORS as middleware and hono's `methodNotAllowed` answering a wrong method with 405, the
 * `Allow` header hono computes from the routes, and the family's sentence. Each route says what it is
 * for once, where it is declared, and nothing else keeps a list of methods. Mount with
 * `app.route('/', family.app)`.
 *
 * Adding a family (issue 38's admin analytics, say) is one declaration:
 *
 * @example
 * const insights = new RouteFamily({ wrongMethod: adminWrongMethod });
 * insights.get('/v1/insights/:domain', 'Use GET /v1/insights/{domain} to read a domain\'s insights.',
 *   admission(runtime, { key: 'admin' }), (c) => c.json(insightsOf(c.get('domain'))));
 * app.route('/', insights.app);
 */

import { REQUEST_ADJUSTED_HEADER, THREAD_ID_HEADER, THREAD_KEY_HEADER } from 'docs-assistant/protocol';
import { type Handler, Hono, type MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { methodNotAllowed } from 'hono/method-not-allowed';
import type { ServiceEnv } from './admission.js';
import { HttpError } from './errors.js';

/**
 * CORS of the public routes: any origin may call, since assistant keys are public and sent as a
 * bearer header, not a cookie. Routes that take an admin key (a server-side secret) get none, so a
 * page of any origin that got hold of a key still cannot call them from a browser.
 */
export const publicCors: MiddlewareHandler = cors({
  origin: '*',
  allowMethods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
  allowHeaders: ['Authorization', 'Content-Type'],
  exposeHeaders: [
    THREAD_ID_HEADER,
    THREAD_KEY_HEADER,
    'Retry-After',
    'X-RateLimit-Limit',
    'X-RateLimit-Remaining',
    REQUEST_ADJUSTED_HEADER,
  ],
  maxAge: 600,
});

export interface RouteFamilyOptions {
  /**
   * CORS: `public` for every method, `none` (admin routes), or public except for some methods (a
   * path whose GET takes an admin key). @default 'none'
   */
  cors?: 'public' | 'none' | { publicExcept: string[] };
  /**
   * The 405's sentence, from the method sent, the purpose of the route it was sent to and the
   * methods its path takes (without HEAD and OPTIONS, which come with GET and CORS).
   */
  wrongMethod: (method: string, purpose: string, allowed: string[]) => string;
}

/** The 405 sentence of the public discovery routes: `Use POST for the search endpoint.` */
export const discoveryWrongMethod = (_method: string, purpose: string, allowed: string[]): string =>
  `Use ${allowed.join(' or ')} for the ${purpose}.`;

/** The 405 sentence of admin routes, whose purpose says the whole call: `PUT is not allowed here. Use POST …` */
export const adminWrongMethod = (method: string, purpose: string): string =>
  `${method} is not allowed here. ${purpose}`;

type RouteHandler = MiddlewareHandler<ServiceEnv> | Handler<ServiceEnv>;

export class RouteFamily {
  readonly app = new Hono<ServiceEnv>();
  private readonly paths = new Set<string>();

  constructor(private readonly options: RouteFamilyOptions) {}

  /** A GET route (HEAD comes with it); `purpose` is what a 405 on its path says to do instead. */
  get(path: string, purpose: string, ...handlers: RouteHandler[]): this {
    return this.route('GET', path, purpose, handlers);
  }

  post(path: string, purpose: string, ...handlers: RouteHandler[]): this {
    return this.route('POST', path, purpose, handlers);
  }

  delete(path: string, purpose: string, ...handlers: RouteHandler[]): this {
    return this.route('DELETE', path, purpose, handlers);
  }

  private route(method: string, path: string, purpose: string, handlers: RouteHandler[]): this {
    if (!this.paths.has(path)) {
      this.paths.add(path);
      const cors = this.corsFor();
      if (cors) this.app.use(path, cors);
      this.app.use(path, this.wrongMethodFor(purpose));
    }
    // hono's overloads type a spread of handlers loosely; each is a handler of this env.
    this.app.on(method, path, ...(handlers as [Handler<ServiceEnv>]));
    return this;
  }

  private corsFor(): MiddlewareHandler | undefined {
    const { cors: mode = 'none' } = this.options;
    if (mode === 'none') return undefined;
    if (mode === 'public') return publicCors;
    return (c, next) => (mode.publicExcept.includes(c.req.method) ? next() : publicCors(c, next));
  }

  private wrongMethodFor(purpose: string): MiddlewareHandler<ServiceEnv> {
    const preflight = this.options.cors !== undefined && this.options.cors !== 'none';
    return methodNotAllowed<ServiceEnv>({
      app: this.app,
      onMethodNotAllowed: (c, methods) => {
        const allow = [...methods, ...(preflight ? ['OPTIONS'] : [])].join(', ');
        // Without CORS, OPTIONS only asks what the path takes: the answer names it, nothing more.
        if (c.req.method === 'OPTIONS') return c.body(null, 204, { Allow: allow });
        const named = methods.filter((method) => method !== 'HEAD');
        throw new HttpError(405, 'invalid_request', this.options.wrongMethod(c.req.method, purpose, named), {
          headers: { Allow: allow },
        });
      },
    });
  }
}
