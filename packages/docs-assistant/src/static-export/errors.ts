import { readErrorText } from '../protocol/error-body.js';

/**
 * Codes a `StaticExportError` carries: the service's error codes (`unauthorized`, `forbidden`,
 * `not_found`, `conflict`, `invalid_request`, …) plus the client's own.
 */
export type StaticExportErrorCode =
  | 'invalid_request'
  | 'invalid_json'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'rate_limited'
  | 'internal'
  /** The admin key was given in a browser (client) or is not an admin key. */
  | 'invalid_configuration'
  /** The request did not reach the service. */
  | 'network_error'
  /** The service answered something that is not the documented shape. */
  | 'invalid_response'
  /** `waitForJob` saw the job fail; `message` is the job's reason. */
  | 'job_failed'
  /** `waitForJob` gave up after `timeoutMs`. */
  | 'timeout'
  | (string & {});

/** Every failure of the static export client, with the HTTP status (0 when there was no response). */
export class StaticExportError extends Error {
  readonly status: number;
  readonly code: StaticExportErrorCode;
  readonly issues: { path: string; message: string }[] | undefined;

  constructor(
    status: number,
    code: StaticExportErrorCode,
    message: string,
    options: { issues?: { path: string; message: string }[]; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'StaticExportError';
    this.status = status;
    this.code = code;
    this.issues = options.issues;
  }
}

/**
 * The code of an error whose body gave none (the real service's bodies are `{ "error": "<message>" }`
 * only): the one its status stands for, so programs can still branch on `code`.
 */
function codeOfStatus(status: number): StaticExportErrorCode {
  switch (status) {
    case 400:
      return 'invalid_request';
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 409:
      return 'conflict';
    case 429:
      return 'rate_limited';
    default:
      return status >= 500 ? 'internal' : 'invalid_response';
  }
}

/**
 * Turns a non-2xx response into a `StaticExportError`, reading the service's JSON error body in any
 * shape (`{ "error": "…", "code"? }`, `{ "error": { "code", "message" } }`, `{ "message" }`; see
 * `readErrorBody`).
 */
export async function errorFromResponse(response: Response): Promise<StaticExportError> {
  let text = '';
  try {
    text = await response.text();
  } catch {
    // The body could not be read; the status still says what happened.
  }
  const said = readErrorText(text);
  if (said) {
    return new StaticExportError(response.status, said.code ?? codeOfStatus(response.status), said.message, {
      issues: said.issues,
    });
  }
  const snippet = text.trim().slice(0, 200);
  return new StaticExportError(
    response.status,
    response.status >= 500 ? 'internal' : 'invalid_response',
    `The static export service answered ${response.status} ${response.statusText}${snippet ? `: ${snippet}` : ''}`,
  );
}

type Scope = Record<string, unknown>;

/**
 * Server runtimes, some of which implement browser globals (`self`, `navigator`, even
 * `WorkerGlobalScope` in Deno's workers): Node, Bun, Deno, Vercel's edge runtime, Cloudflare
 * Workers. Code there may hold a secret.
 */
function isServerRuntime(scope: Scope): boolean {
  const versions = (scope.process as { versions?: Record<string, unknown> } | undefined)?.versions;
  if (typeof versions?.node === 'string' || typeof versions?.bun === 'string') return true;
  if (scope.Deno !== undefined || scope.Bun !== undefined) return true;
  if (typeof scope.EdgeRuntime === 'string') return true;
  const userAgent = (scope.navigator as { userAgent?: unknown } | undefined)?.userAgent;
  return userAgent === 'Cloudflare-Workers';
}

/**
 * True in a browser page or a browser's worker (dedicated, shared or service; classic or module),
 * where an admin key (a server-side secret, spec §5) must never be. `scope` is for tests.
 */
export function isBrowser(scope: Scope = globalThis as unknown as Scope): boolean {
  // A page (and jsdom, which tests use to stand for one, under Node).
  if (scope.window !== undefined && scope.document !== undefined) return true;
  if (isServerRuntime(scope)) return false;
  // Workers have no window or document, but a WorkerGlobalScope (and importScripts, even in a
  // module worker, where it only throws when called).
  return (
    typeof scope.WorkerGlobalScope === 'function' ||
    typeof scope.ServiceWorkerGlobalScope === 'function' ||
    typeof scope.SharedWorkerGlobalScope === 'function' ||
    typeof scope.DedicatedWorkerGlobalScope === 'function' ||
    typeof scope.importScripts === 'function'
  );
}

export function assertServerSide(what: string, dangerouslyAllowBrowser: boolean | undefined): void {
  if (isBrowser() && !dangerouslyAllowBrowser) {
    throw new StaticExportError(
      0,
      'invalid_configuration',
      `${what} refuses to run in a browser (page or worker): it holds an admin API key (svc_…), a server-side secret that must not appear in client-side code (spec §5). ` +
        'Run it on your backend: mount createStaticExportHandler({ baseUrl, adminKey }) in a route of your server and point <StaticExportPanel endpoint="…"> at that route.',
    );
  }
}
