/**
 * JSON-RPC params checked before the SDK's `Server` sees them. The SDK parses a request's params
 * with its zod schema inside the handler, so a malformed one (`arguments` as an array, `name` as an
 * object) comes back as `-32603 Internal error` with zod's issue list as the message. The protocol
 * says `-32602 Invalid params`; this answers that, with one line saying what to change, over any
 * transport (`http.ts` and `stdio.ts` both wrap theirs).
 *
 * Argument values of the wrong type inside a well-formed call are not checked here: MCP 2025-11-25
 * (SEP-1303) asks for those as tool errors (`isError`), which `tools.ts` answers, so a model reads
 * them and corrects its call.
 */
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  isJSONRPCRequest,
  type JSONRPCMessage,
  type JSONRPCRequest,
  ListToolsRequestSchema,
  type MessageExtraInfo,
  PingRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);

const kindOf = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
};

// The requests this server answers, by method; the SDK answers any other with -32601 itself.
const SCHEMAS = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
} as const;

/** What is wrong with a `tools/call`'s name or arguments, in the words a caller needs. */
function toolCallProblem(params: Record<string, unknown>, tools: readonly string[]): string | undefined {
  const { name, arguments: args } = params;
  if (typeof name !== 'string') {
    const names = tools.map((tool) => `"${tool}"`).join(' or ');
    return `params.name must be the tool's name as a string, ${names} (got ${name === undefined ? 'nothing' : kindOf(name)}).`;
  }
  if (args !== undefined && !isRecord(args)) {
    return `params.arguments must be an object of the tool's arguments, like { "query": "dark mode" } (got ${kindOf(args)}).`;
  }
  return undefined;
}

/**
 * The one-line `-32602` message for a request whose params do not fit its method, or undefined
 * when they do (or the method is not one this server answers).
 */
export function paramsProblem(request: JSONRPCRequest, tools: readonly string[]): string | undefined {
  const schema = SCHEMAS[request.method as keyof typeof SCHEMAS];
  if (!schema) return undefined;
  const { params } = request as { params?: unknown };
  if (params !== undefined && !isRecord(params)) {
    return `Invalid params for ${request.method}: params must be an object (got ${kindOf(params)}).`;
  }
  if (request.method === 'tools/call') {
    const problem = toolCallProblem(params ?? {}, tools);
    if (problem) return `Invalid params for tools/call: ${problem}`;
  }
  const parsed = schema.safeParse(request);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  const path = issue?.path.length ? issue.path.map(String).join('.') : 'params';
  return `Invalid params for ${request.method}: ${path}: ${issue?.message ?? 'does not fit the method'}; see the method's params in the MCP specification.`;
}

/**
 * A transport whose malformed requests are answered with `-32602` before the server reads them;
 * everything else passes through to `inner` unchanged.
 */
export class ParamsCheckedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private handler?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

  constructor(
    readonly inner: Transport,
    private readonly tools: readonly string[],
  ) {
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => this.receive(message, extra);
  }

  get onmessage() {
    return this.handler;
  }

  set onmessage(handler: ((message: JSONRPCMessage, extra?: MessageExtraInfo) => void) | undefined) {
    this.handler = handler;
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion = (version: string): void => this.inner.setProtocolVersion?.(version);

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    const problem = isJSONRPCRequest(message) ? paramsProblem(message, this.tools) : undefined;
    if (!problem || !isJSONRPCRequest(message)) {
      this.handler?.(message, extra);
      return;
    }
    void this.inner
      .send(
        { jsonrpc: '2.0', id: message.id, error: { code: ErrorCode.InvalidParams, message: problem } },
        { relatedRequestId: message.id },
      )
      .catch((error: unknown) => this.onerror?.(error instanceof Error ? error : new Error(String(error))));
  }
}
