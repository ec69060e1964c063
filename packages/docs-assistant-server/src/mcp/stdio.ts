/**
 * MCP over stdio, one JSON-RPC message per line, that survives a bad line. The SDK's
 * `StdioServerTransport` closes itself when a line passes its buffer limit, and the process then
 * exits 0 with nothing said; this one drops that line (answering its id when the line's start or
 * end names it), says so through `onerror` (the CLI writes it to standard error) and reads on.
 */
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/** Longest line read (bytes), the SDK's own stdio limit: a docs query is never near it. */
export const MAX_STDIO_LINE_BYTES = 10 * 1024 * 1024;

// Bytes of a dropped line kept at each end, where an id is looked for.
const EDGE_BYTES = 256;

// Where clients write the id: first (after "jsonrpc") or last, at the message's top level.
const ID_FIRST = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*,/;
const ID_LAST = /,\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*\}\s*$/;

/** The id an oversized line's ends name at its top level, if they name one plainly. */
export function idAtEdges(head: string, tail: string): RequestId | undefined {
  const match = ID_FIRST.exec(head) ?? ID_LAST.exec(tail);
  if (!match) return undefined;
  try {
    const id: unknown = JSON.parse(match[1]!);
    return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)) ? id : undefined;
  } catch {
    return undefined;
  }
}

export interface LineTransportOptions {
  /** Longest line read, in bytes. @default MAX_STDIO_LINE_BYTES */
  maxLineBytes?: number;
}

/** A `Transport` over a byte stream in and one out, newline-delimited JSON-RPC. */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly maxLineBytes: number;
  private chunks: Buffer[] = [];
  private size = 0;
  /** While a line over the limit is being skipped: its first and latest bytes, and its length. */
  private dropping: { head: string; tail: Buffer; bytes: number } | undefined;
  private started = false;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    options: LineTransportOptions = {},
  ) {
    this.maxLineBytes = options.maxLineBytes ?? MAX_STDIO_LINE_BYTES;
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('LineTransport already started');
    this.started = true;
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
  }

  async close(): Promise<void> {
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.chunks = [];
    this.size = 0;
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once('drain', resolve);
    });
  }

  private readonly onInputError = (error: Error) => this.onerror?.(error);

  private readonly onData = (chunk: Buffer | string) => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let end = data.indexOf(10); ; end = data.indexOf(10)) {
      if (end < 0) {
        this.hold(data);
        return;
      }
      const rest = data.subarray(end + 1);
      this.hold(data.subarray(0, end));
      this.endLine();
      data = rest;
    }
  };

  /** Keeps part of the current line, or only its ends once it is over the limit. */
  private hold(part: Buffer): void {
    if (!part.length) return;
    if (!this.dropping && this.size + part.length > this.maxLineBytes) {
      const start = Buffer.concat([...this.chunks, part]);
      this.dropping = {
        head: start.subarray(0, EDGE_BYTES).toString('utf8'),
        tail: Buffer.alloc(0),
        bytes: 0,
      };
      this.dropping.bytes = start.length;
      this.dropping.tail = start.subarray(-EDGE_BYTES);
      this.chunks = [];
      this.size = 0;
      return;
    }
    if (this.dropping) {
      this.dropping.bytes += part.length;
      this.dropping.tail = Buffer.concat([this.dropping.tail, part]).subarray(-EDGE_BYTES);
      return;
    }
    this.chunks.push(part);
    this.size += part.length;
  }

  private endLine(): void {
    if (this.dropping) {
      const { head, tail } = this.dropping;
      this.dropping = undefined;
      this.refuseOversized(idAtEdges(head, tail.toString('utf8')));
      return;
    }
    const text = Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, '');
    this.chunks = [];
    this.size = 0;
    if (!text.trim()) return;
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(text));
    } catch (error) {
      const reason = error instanceof SyntaxError ? error.message : 'it is not a JSON-RPC 2.0 message';
      this.onerror?.(
        new Error(
          `ignored a line of standard input that is not a JSON-RPC message (${reason}); serving the next message.`,
        ),
      );
      return;
    }
    this.onmessage?.(message);
  }

  private refuseOversized(id: RequestId | undefined): void {
    const limit = this.maxLineBytes;
    this.onerror?.(
      new Error(
        `dropped a message of more than ${limit} bytes (one line of standard input)${id === undefined ? '' : ` with id ${JSON.stringify(id)}`}; send smaller messages. Serving the next message.`,
      ),
    );
    if (id === undefined) return;
    void this.send({
      jsonrpc: '2.0',
      id,
      error: {
        code: ErrorCode.InvalidRequest,
        message: `The message is larger than ${limit} bytes, the most this server reads in one line; send a smaller one.`,
      },
    });
  }
}
