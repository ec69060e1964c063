/**
 * What one caller with the public assistant key can make the service hold. The key is public (it
 * ships in every docs page), so every field a request stores is capped, and the threads kept are
 * capped by bytes as well as by count: otherwise a few hundred requests of a megabyte each fill the
 * service's memory and its `threads.jsonl`. Free of Node built-ins (the in-memory service uses it).
 */

export interface AssistantLimits {
  /**
   * Longest `fp` (in characters). A reader fingerprint is an id or a hash: a FingerprintJS visitor
   * id has 20 characters, a UUID 36, a SHA-256 in hex 64; 256 leaves room for prefixed user ids.
   * @default 256
   */
  maxFpLength: number;
  /**
   * Longest text of one message (in characters: its `content`, or its text and reasoning parts). A
   * question with a pasted stack trace or config file, and an answer sent back in the history (an
   * LLM answer of 4,096 tokens is about 16,000 characters), both fit in 32,000.
   * @default 32_000
   */
  maxMessageChars: number;
  /**
   * Bytes of turns kept per thread (as written to `threads.jsonl`); past it the oldest turns are
   * dropped, always keeping the newest. Only the latest questions inform retrieval, and 20 ordinary
   * turns (2–5 kB each) fit many times over.
   * @default 256 KiB
   */
  maxThreadBytes: number;
  /**
   * Bytes of all threads kept (in memory, and so in a compacted `threads.jsonl`); past it the least
   * recently used threads are forgotten first. 10,000 ordinary threads of 10 kB each fit.
   * @default 128 MiB
   */
  maxStoredBytes: number;
}

export const DEFAULT_ASSISTANT_LIMITS: Readonly<AssistantLimits> = {
  maxFpLength: 256,
  maxMessageChars: 32_000,
  maxThreadBytes: 256 * 1024,
  maxStoredBytes: 128 * 1024 * 1024,
};

/** The limits with defaults filled in; throws saying which option is wrong. */
export function resolveAssistantLimits(options: Partial<AssistantLimits> = {}): AssistantLimits {
  const limits = { ...DEFAULT_ASSISTANT_LIMITS };
  for (const name of Object.keys(DEFAULT_ASSISTANT_LIMITS) as (keyof AssistantLimits)[]) {
    const value = options[name];
    if (value === undefined) continue;
    if (!Number.isInteger(value) || value <= 0) {
      throw new Error(`limits.${name} must be a positive whole number (got ${value}).`);
    }
    limits[name] = value;
  }
  return limits;
}

/** UTF-8 length of a string, without encoding it (the in-memory service has no `Buffer`). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}
