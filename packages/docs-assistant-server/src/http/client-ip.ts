/** The client's address, the key of the per-IP rate limit. */
import type { Context } from 'hono';

interface NodeBindings {
  incoming?: { socket?: { remoteAddress?: string } };
}

/**
 * The client's IP address. Behind a proxy (`trustProxy`), the first `X-Forwarded-For` entry;
 * otherwise the socket's address under Node (`@hono/node-server`'s bindings), or `unknown` when
 * called in-process.
 *
 * @example
 * const ip = clientIp(c, { trustProxy: runtime.trustProxy });
 */
export function clientIp(c: Context, options: { trustProxy?: boolean } = {}): string {
  if (options.trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  const env = c.env as NodeBindings | undefined;
  const address = env?.incoming?.socket?.remoteAddress;
  return address ? address.replace(/^::ffff:/, '') : 'unknown';
}
