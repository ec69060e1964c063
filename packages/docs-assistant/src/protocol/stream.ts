/**
 * The AI SDK v4 data stream protocol: one `CODE:JSON\n` line per part. The spec's v1 endpoint
 * speaks it (§4.1) and ends with a finish part (`d:`) that carries `threadId` (§6).
 */

/** Part codes of the v4 data stream, by name. */
export const STREAM_PART_CODE = {
  text: '0',
  data: '2',
  error: '3',
  messageAnnotations: '8',
  toolCall: '9',
  toolResult: 'a',
  toolCallStreamingStart: 'b',
  toolCallDelta: 'c',
  finishMessage: 'd',
  finishStep: 'e',
  startStep: 'f',
  reasoning: 'g',
  source: 'h',
  redactedReasoning: 'i',
  reasoningSignature: 'j',
  file: 'k',
} as const;

export type StreamPartName = keyof typeof STREAM_PART_CODE;
export type StreamPartCode = (typeof STREAM_PART_CODE)[StreamPartName];

const NAME_BY_CODE = new Map<string, StreamPartName>(
  Object.entries(STREAM_PART_CODE).map(([name, code]) => [code, name as StreamPartName]),
);

export type ParsedStreamLine =
  | { ok: true; name: StreamPartName; code: StreamPartCode; value: unknown }
  | { ok: false; reason: string };

/** Parses one line of a data stream (without its newline). */
export function parseStreamLine(line: string): ParsedStreamLine {
  const colon = line.indexOf(':');
  if (colon <= 0)
    return { ok: false, reason: `no part code before ':' in ${JSON.stringify(line.slice(0, 40))}` };
  const code = line.slice(0, colon);
  const name = NAME_BY_CODE.get(code);
  if (!name) return { ok: false, reason: `unknown part code ${JSON.stringify(code)}` };
  try {
    return { ok: true, name, code: code as StreamPartCode, value: JSON.parse(line.slice(colon + 1)) };
  } catch {
    return { ok: false, reason: `part ${JSON.stringify(code)} does not hold valid JSON` };
  }
}

/** The value of a finish (`d:`) part: the SDK's fields plus the spec's `threadId`. */
export interface FinishMessageValue {
  finishReason?: string;
  usage?: { promptTokens?: number; completionTokens?: number };
  threadId?: string;
  threadKey?: string;
}

/** Response headers a server may use to give the thread (besides the finish part). */
export const THREAD_ID_HEADER = 'X-Thread-Id';
export const THREAD_KEY_HEADER = 'X-Thread-Key';
/**
 * Set by the reference service when it answered a body the real service's schema accepts but that
 * it read differently (a `retrievalPageSize` of 2.5 rounded, a `currentPath` cut to 200 characters,
 * an empty search query): one ASCII sentence per change, `; `-separated.
 */
export const REQUEST_ADJUSTED_HEADER = 'X-Request-Adjusted';
