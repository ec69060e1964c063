/**
 * Where conversations are kept between visits: localStorage per domain by default, memory, or the
 * host's own `ThreadStorage`. Whatever the storage does (throws, is full, is disabled, holds
 * something old or broken) the widget keeps working: broken data is discarded, a failing storage is
 * replaced by memory, and each problem is reported once with `console.warn`.
 *
 * Several tabs share one stored value per domain. It holds the conversation saved last (its
 * `threadId`, `threadKey` and `messages`, in the shape of version 1, so data written before any of
 * this loads as it is) plus, in `others`, the other conversations still kept, newest first. Each
 * conversation has a local `id` (not the server's thread: two conversations can share one) and a
 * `revision`, raised by every save. A tab remembers the id and revision it last loaded or saved,
 * and every save reads the stored value first (`saveConversation`):
 *
 * - the stored conversation with this tab's id is still at the tab's revision: the tab is up to
 *   date, its conversation replaces it;
 * - another tab saved it meanwhile (another revision), and the stored messages (by id) are the first
 *   of the tab's messages: the tab's conversation holds all of it plus more, so it replaces it
 *   (merged by message id);
 * - the tab's messages are the first of the stored ones: the tab has nothing the store lacks, so
 *   nothing is written (and the tab stays at its revision, so its next question is checked again);
 * - the two went different ways (each tab asked its own question): the tab's conversation is kept
 *   as a new conversation of its own (a fork with a new id, the same thread) and the stored one is
 *   kept as it is. Interleaving the two would make a conversation neither reader had.
 *
 * So no save drops another tab's conversation. Only deleting one from the history removes it ("New
 * conversation" keeps the one shown in the history), and more than `MAX_STORED_CONVERSATIONS` or
 * `MAX_STORED_CHARS`, or a full localStorage, drops the oldest.
 *
 * A tab that is not in the middle of an answer follows the other tabs (`followStored`): it shows
 * a newer revision of its own conversation (never an older one: what the tab saved last stays), becomes empty when its conversation was removed, and,
 * while it shows nothing, takes up the conversation saved last. It never switches to another
 * conversation it did not show, so two tabs answering at once each keep their own. A reload reopens
 * the conversation the tab showed (remembered in its `sessionStorage`), else the one saved last.
 */

import { generateId } from '@ai-sdk/ui-utils';
import type { MessageRole } from '../protocol/index.js';
import { isRecord } from '../protocol/search-results.js';
import { describeError, threadOf } from './trace.js';
import type { AssistantMessage, ConversationSummary, StoredThread, ThreadStorage } from './types.js';
import { warnOnce } from './warn.js';

/** Version of what is written to localStorage; data of another version is discarded. */
export const STORED_THREAD_VERSION = 1;

/** The localStorage key of a domain's conversation. */
export const threadStorageKey = (domain: string): string => `docs-assistant:v1:${domain}`;

/**
 * A stored conversation as the widget writes it: a `StoredThread` plus its local identity. Every
 * added field is optional, so version 1 data written before them loads as it is, and a custom
 * `ThreadStorage` that keeps the JSON it is given keeps them too.
 */
export interface StoredConversation extends StoredThread {
  /** Local id of the conversation (a fork of a conversation has its own). */
  id?: string;
  /** Raised by every save of this conversation; tells a tab whether another tab saved it meanwhile. */
  revision?: number;
  /** When it was saved last (ISO 8601). */
  updatedAt?: string;
  /** The other conversations kept for the domain, newest first (only on the stored value itself). */
  others?: StoredConversation[];
}

/** Stored data that cannot be used (bad JSON, another version): discard it, keep the storage. */
export class UnusableStoredThreadError extends Error {
  override name = 'UnusableStoredThreadError';
}

// Kept per page so a remounted widget finds its conversation (and fallbacks keep theirs).
const memoryThreads = new Map<string, StoredThread>();

/** Keeps the conversation in memory for this page only, per key. */
export function createMemoryThreadStorage(key: string): ThreadStorage {
  return {
    load: () => memoryThreads.get(key) ?? null,
    save: (thread) => {
      memoryThreads.set(key, thread);
    },
    clear: () => {
      memoryThreads.delete(key);
    },
  };
}

function decode(raw: string): StoredThread {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new UnusableStoredThreadError('it is not valid JSON');
  }
  if (
    typeof json !== 'object' ||
    json === null ||
    (json as { version?: unknown }).version !== STORED_THREAD_VERSION
  ) {
    throw new UnusableStoredThreadError(`it is not in the format of version ${STORED_THREAD_VERSION}`);
  }
  const { threadId, threadKey, messages, id, revision, updatedAt, others } = json as StoredConversation;
  return { threadId, threadKey, messages, id, revision, updatedAt, others } as StoredThread;
}

// Chromium and Firefox name it differently (and old Firefox used its own code).
const isQuotaExceeded = (error: unknown) =>
  error instanceof DOMException &&
  (error.name === 'QuotaExceededError' || error.name === 'NS_ERROR_DOM_QUOTA_REACHED' || error.code === 22);

/**
 * localStorage under `docs-assistant:v1:<domain>`, synced across tabs by the `storage` event. Access
 * happens only when a method is called, so creating it is safe during server rendering.
 */
export function createLocalThreadStorage(domain: string): ThreadStorage {
  const key = threadStorageKey(domain);
  const area = (): Storage => window.localStorage;
  // On the server there is no page and nothing stored.
  const onServer = () => typeof window === 'undefined';
  const read = () => {
    const raw = area().getItem(key);
    return raw === null ? null : decode(raw);
  };
  return {
    load: () => (onServer() ? null : read()),
    save(thread) {
      if (onServer()) return;
      // Full: the oldest of the other conversations make room, never the one being saved.
      let value = thread as StoredConversation;
      for (;;) {
        try {
          area().setItem(key, JSON.stringify({ version: STORED_THREAD_VERSION, ...value }));
          return;
        } catch (error) {
          if (!isQuotaExceeded(error) || !value.others?.length) throw error;
          const others = value.others.slice(0, -1);
          value = others.length ? { ...value, others } : { ...value, others: undefined };
        }
      }
    },
    clear() {
      if (onServer()) return;
      area().removeItem(key);
    },
    subscribe(listener) {
      if (onServer()) return () => {};
      const onStorage = (event: StorageEvent) => {
        // `key === null`: the other tab cleared all of localStorage.
        if (event.key !== null && event.key !== key) return;
        if (event.storageArea && event.storageArea !== area()) return;
        // The value stored now, not the event's `newValue`: the event arrives a while after the
        // other tab wrote, and this tab may have saved since (a tab that has just ended its answer
        // would otherwise be shown the value from before its save, without that answer).
        try {
          listener(read());
        } catch {
          // Something unusable from another tab: keep this tab's conversation; the next save replaces it.
        }
      };
      window.addEventListener('storage', onStorage);
      return () => window.removeEventListener('storage', onStorage);
    },
  };
}

/** JSON restores dates as strings; the client's messages hold `Date`s. */
function revive(messages: AssistantMessage[]): AssistantMessage[] {
  return messages.map((message) =>
    typeof message.createdAt === 'string' ? { ...message, createdAt: new Date(message.createdAt) } : message,
  );
}

// --- Shape of a stored thread ------------------------------------------------------------------
// The same rules as the protocol's `MessageSchema` (spec §2.2–2.3), checked by hand: the zod
// runtime would be the biggest single piece of the widget's browser code, for this one check.

type Check = (value: unknown) => boolean;

const isString: Check = (value) => typeof value === 'string';
const optional =
  (check: Check): Check =>
  (value) =>
    value === undefined || check(value);
const arrayOf =
  (check: Check): Check =>
  (value) =>
    Array.isArray(value) && value.every(check);
/** An object whose listed fields pass their checks; other fields are allowed (and kept). */
const shape =
  (fields: Record<string, Check>): Check =>
  (value) =>
    isRecord(value) && Object.entries(fields).every(([key, check]) => check(value[key]));
const literal =
  (expected: string): Check =>
  (value) =>
    value === expected;

// ISO 8601 date-time with an offset, as `Date#toJSON` writes it (zod's `iso.datetime({ offset })`).
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)$/;
const isDateTime: Check = (value) =>
  value instanceof Date ||
  (typeof value === 'string' && ISO_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)));

const TOOL_STATES = new Set(['partial-call', 'call', 'result']);
const isToolInvocation = shape({
  state: (value) => typeof value === 'string' && TOOL_STATES.has(value),
  step: optional((value) => typeof value === 'number'),
  toolCallId: isString,
  toolName: isString,
});

const isReasoningDetail: Check = (value) =>
  isRecord(value) &&
  (value.type === 'text'
    ? isString(value.text) && optional(isString)(value.signature)
    : value.type === 'redacted' && isString(value.data));

const PART_CHECKS = new Map<unknown, Check>(
  Object.entries({
    text: shape({ text: isString }),
    reasoning: shape({ reasoning: isString, details: arrayOf(isReasoningDetail) }),
    'step-start': () => true,
    source: shape({
      source: shape({
        sourceType: literal('url'),
        id: isString,
        url: isString,
        title: optional(isString),
      }),
    }),
    'tool-invocation': shape({ toolInvocation: isToolInvocation }),
    file: shape({ mimeType: isString, data: isString }),
  }),
);
const isPart: Check = (value) => isRecord(value) && !!PART_CHECKS.get(value.type)?.(value);

// The protocol's MESSAGE_ROLES, spelled out: importing that constant would load its zod schemas.
// `satisfies` keeps the two in step (a missing or unknown role does not compile).
const ROLES = new Set<unknown>(
  Object.keys({ system: true, assistant: true, data: true, user: true } satisfies Record<MessageRole, true>),
);
const isMessage = shape({
  id: (value) => typeof value === 'string' && value.length > 0,
  role: (value) => ROLES.has(value),
  content: isString,
  parts: arrayOf(isPart),
  createdAt: optional(isDateTime),
  annotations: optional(Array.isArray),
  experimental_attachments: optional(
    arrayOf(shape({ name: optional(isString), contentType: optional(isString), url: isString })),
  ),
});
const isStoredThread = shape({
  threadId: optional(isString),
  threadKey: optional(isString),
  messages: arrayOf(isMessage),
  id: optional((value) => typeof value === 'string' && value.length > 0),
  revision: optional((value) => Number.isSafeInteger(value) && (value as number) >= 0),
  updatedAt: optional(isString),
});

/**
 * Deepest nesting a stored thread may have (in objects and arrays, the thread itself counting 1).
 * A message with a tool result from the docs search is about 10 deep; anything near this limit is
 * not a conversation, and far deeper data makes `JSON.stringify` overflow the stack on every send.
 */
export const MAX_STORED_DEPTH = 64;
/** Most objects, arrays and values a stored thread may hold: localStorage holds a few MB at most. */
export const MAX_STORED_NODES = 1_000_000;

/**
 * Why a value is too deep or too big to be a stored thread, or `undefined` when it is within the
 * limits. Walks with its own stack, so no depth of nesting can overflow the call stack.
 */
function exceedsBounds(value: unknown): string | undefined {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  let nodes = 0;
  while (stack.length > 0) {
    const next = stack.pop()!;
    nodes += 1;
    if (nodes > MAX_STORED_NODES) return `it holds more than ${MAX_STORED_NODES} values`;
    if (typeof next.value !== 'object' || next.value === null) continue;
    if (next.depth > MAX_STORED_DEPTH) return `it is nested more than ${MAX_STORED_DEPTH} levels deep`;
    const children = Array.isArray(next.value) ? next.value : Object.values(next.value);
    for (const child of children) stack.push({ value: child, depth: next.depth + 1 });
  }
  return undefined;
}

/** Checks a stored thread's limits and shape; says why it cannot be used, or gives the thread. */
function check(thread: unknown, id?: string): { thread: StoredThread } | { problem: string } {
  const problem = exceedsBounds(thread);
  if (problem) return { problem };
  const valid = validate(thread, id);
  return valid ? { thread: valid } : { problem: 'it does not have the shape of a conversation' };
}

/**
 * Checks a stored thread's shape; `null` when it is not one. Expects a thread within the limits.
 * Other conversations that are broken are left out (with a warning); the rest is kept.
 */
function validate(thread: unknown, id?: string): StoredThread | null {
  const one = validateOne(thread);
  if (!one) return null;
  const { others } = thread as StoredConversation;
  if (others === undefined) return one;
  const kept = Array.isArray(others)
    ? others.map((other) => validateOne(other)).filter((other) => other !== null)
    : [];
  if (!Array.isArray(others) || kept.length < others.length) {
    warnOnce(
      `${id}:others`,
      `Left out other stored conversations (${id ?? 'storage'}) because they do not have the shape of a conversation.`,
    );
  }
  return kept.length ? ({ ...one, others: kept } as StoredThread) : one;
}

function validateOne(thread: unknown): StoredConversation | null {
  if (!isStoredThread(thread)) return null;
  const { messages, id, revision, updatedAt } = thread as StoredConversation;
  return {
    ...(id ? { id } : {}),
    ...(revision !== undefined ? { revision } : {}),
    ...(updatedAt ? { updatedAt } : {}),
    ...threadOf(thread),
    messages: revive(messages),
  };
}

/**
 * Wraps a storage so it never throws and never hands out bad data: unusable or wrongly shaped data
 * is discarded; a storage that throws is replaced by memory for the rest of the page's life. Saves
 * of an unchanged thread are skipped (the hook saves at every pause of the conversation).
 *
 * @param id names the storage in warnings and keys the memory fallback.
 */
export function resilientThreadStorage(inner: ThreadStorage, id: string): ThreadStorage {
  const memory = createMemoryThreadStorage(id);
  let failed = false;
  let last: string | undefined;

  const fail = (what: string, error: unknown) => {
    failed = true;
    warnOnce(
      `${id}:failed`,
      `The conversation storage (${id}) failed to ${what} (${describeError(error)}); the conversation is kept in memory for this page instead.`,
    );
  };
  const clearInner = () => {
    try {
      inner.clear();
    } catch (error) {
      fail('clear', error);
    }
  };
  const discard = (why: string) => {
    warnOnce(
      `${id}:discarded`,
      `Discarded the stored conversation (${id}) because ${why}; starting a new one.`,
    );
    clearInner();
  };
  const saveInner = (thread: StoredThread) => {
    try {
      inner.save(thread);
    } catch (error) {
      fail('save', error);
      memory.save(thread);
    }
  };

  return {
    load() {
      if (failed) return memory.load();
      const usable = readInner(inner, id, discard, fail);
      if (usable === undefined) return memory.load();
      if (usable === null) return null;
      last = usable.json;
      // Kept as a save would keep it, once: the next load reads the bounded value.
      if (usable.cutFrom !== undefined) saveInner(usable.thread);
      return usable.thread;
    },
    save(thread) {
      const json = jsonOf(thread, id);
      if (json === undefined || json === last) return;
      last = json;
      if (failed) memory.save(thread);
      else saveInner(thread);
    },
    clear() {
      last = undefined;
      memory.clear();
      if (!failed) clearInner();
    },
    subscribe: (listener) =>
      subscribeChecked(inner, id, listener, (json) => {
        if (failed) return false;
        last = json;
        return true;
      }),
  };
}

/**
 * A stored value checked and brought within the bounds of a save, with its JSON; `cutFrom` is the
 * length of its JSON before, when it had to be cut.
 */
function usableValue(
  thread: StoredThread,
  id: string,
): { problem: string } | { thread: StoredThread; json: string; cutFrom?: number } {
  const checked = check(thread, id);
  if ('problem' in checked) return checked;
  const json = JSON.stringify(checked.thread);
  const bounded = boundedValue(checked.thread, json.length);
  return bounded
    ? { thread: bounded, json: JSON.stringify(bounded), cutFrom: json.length }
    : { thread: checked.thread, json };
}

/**
 * What `inner` holds, checked and within the bounds (with a warning when it had to be cut); `null`
 * when it holds nothing or something unusable (handed to `discard`), `undefined` when it threw
 * (handed to `fail`).
 */
function readInner(
  inner: ThreadStorage,
  id: string,
  discard: (why: string) => void,
  fail: (what: string, error: unknown) => void,
): { thread: StoredThread; json: string; cutFrom?: number } | null | undefined {
  let thread: StoredThread | null;
  try {
    thread = inner.load();
  } catch (error) {
    if (error instanceof UnusableStoredThreadError) {
      discard(error.message);
      return null;
    }
    fail('load', error);
    return undefined;
  }
  if (thread === null) return null;
  const usable = usableValue(thread, id);
  if ('problem' in usable) {
    discard(usable.problem);
    return null;
  }
  if (usable.cutFrom !== undefined) {
    warnOnce(
      `${id}:bounded`,
      `The stored conversations (${id}) took ${usable.cutFrom} characters; kept the newest within ${MAX_STORED_CHARS} characters and ${MAX_STORED_CONVERSATIONS} conversations, as every save does.`,
    );
  }
  return usable;
}

/** The JSON of a thread to save, or undefined (with a warning) when JSON cannot write it. */
function jsonOf(thread: StoredThread, id: string): string | undefined {
  try {
    return JSON.stringify(thread);
  } catch (error) {
    // A thread JSON cannot write (nested too deep, a cycle) would fail every storage alike.
    warnOnce(
      `${id}:unsaveable`,
      `Could not save the conversation (${id}): ${describeError(error)}. The stored one is left as it was.`,
    );
    return undefined;
  }
}

/**
 * Follows another tab's changes of `inner` with the same checks as a load. `take` is told the JSON
 * of each usable change (undefined for a removal) and says whether to pass it on.
 */
function subscribeChecked(
  inner: ThreadStorage,
  id: string,
  listener: (thread: StoredThread | null) => void,
  take: (json: string | undefined) => boolean,
): () => void {
  if (!inner.subscribe) return () => {};
  try {
    return inner.subscribe((thread) => {
      if (thread === null) {
        if (take(undefined)) listener(null);
        return;
      }
      // Another program's value beyond the bounds is shown within them (the next save writes it so).
      const usable = usableValue(thread, id);
      if (!('problem' in usable) && take(usable.json)) listener(usable.thread);
    });
  } catch (error) {
    warnOnce(`${id}:subscribe`, `Could not follow changes from other tabs (${describeError(error)}).`);
    return () => {};
  }
}

/** The storage for the `storage` option, made safe. */
export function resolveThreadStorage(
  storage: 'local' | 'memory' | ThreadStorage | undefined,
  domain: string,
): ThreadStorage {
  const key = threadStorageKey(domain);
  if (storage === 'memory') return createMemoryThreadStorage(key);
  if (storage && typeof storage === 'object')
    return resilientThreadStorage(storage, `custom storage for ${domain}`);
  return resilientThreadStorage(createLocalThreadStorage(domain), `localStorage "${key}"`);
}

// --- Conversations of several tabs ----------------------------------------------------------------
// The rule is in this module's header comment.

/** Most conversations kept per domain; past it the oldest goes (localStorage holds a few MB). */
export const MAX_STORED_CONVERSATIONS = 50;

/**
 * Most characters of JSON the stored value of a domain may take (browsers count localStorage in
 * UTF-16 characters, about 5 million per site, shared with the host page): past it the oldest
 * conversations go. The one saved last always stays, however big.
 */
export const MAX_STORED_CHARS = 1_000_000;

/** What a tab knows of the conversation it shows: its id and the revision it last loaded or saved (0: never saved). */
export interface ConversationRef {
  id: string;
  revision: number;
}

/** A conversation in the list of a stored value, with its id and revision filled in. */
export type KeptConversation = Omit<StoredConversation, 'others'> & ConversationRef;

/** The id a conversation saved before ids existed gets: the same in every tab that loads it. */
const legacyId = (thread: StoredThread): string => `v1:${thread.messages[0]?.id ?? 'empty'}`;

/**
 * A conversation of the stored list. A value of the single-conversation days (version 1 without
 * `id`) reads as a list of one: its id is the same in every tab, and its time that of its last
 * message; it is written in the list's shape at its next save (a read never writes).
 */
function kept(thread: StoredConversation): KeptConversation {
  const { others: _others, ...rest } = thread;
  const last = thread.messages.at(-1)?.createdAt;
  const updatedAt = thread.updatedAt ?? (last ? new Date(last).toISOString() : undefined);
  return {
    ...rest,
    ...(updatedAt ? { updatedAt } : {}),
    id: thread.id ?? legacyId(thread),
    revision: thread.revision ?? 0,
  };
}

/** The conversations of a stored value, the one saved last first. */
export function storedConversations(value: StoredThread | null): KeptConversation[] {
  if (!value) return [];
  const stored = value as StoredConversation;
  const list = [kept(stored), ...(stored.others ?? []).map(kept)];
  // Two entries with one id (hand-edited data): the first, newer, one counts.
  return list.filter((item, index) => list.findIndex((other) => other.id === item.id) === index);
}

/**
 * A conversation's newest messages within `budget` characters of JSON, from a question on: the
 * oldest turns go first; the last question and what follows it always stay, however big. The
 * conversation keeps its `id` and thread, so a tab showing more of it still recognises it.
 */
export function newestWithin(conversation: KeptConversation, budget: number): KeptConversation {
  let size = JSON.stringify(conversation).length;
  if (size <= budget) return conversation;
  const { messages } = conversation;
  const lastQuestion = messages.findLastIndex((message) => message.role === 'user');
  const floor = lastQuestion >= 0 ? lastQuestion : messages.length - 1;
  let start = 0;
  while (start < floor && size > budget) {
    size -= JSON.stringify(messages[start]).length + 1;
    start += 1;
  }
  // A conversation starts with a question, never with an answer cut from it.
  while (start < floor && messages[start]!.role !== 'user') start += 1;
  return start === 0 ? conversation : { ...conversation, messages: messages.slice(start) };
}

/**
 * The stored value for a list of conversations (newest first), or `null` for none: at most
 * `MAX_STORED_CONVERSATIONS` of them in at most `MAX_STORED_CHARS`, the oldest dropped first; the
 * newest keeps its newest turns within the bound on its own (`newestWithin`).
 */
export function storedValue(list: KeptConversation[]): StoredThread | null {
  const [first, ...others] = list.slice(0, MAX_STORED_CONVERSATIONS);
  if (!first) return null;
  const latest = newestWithin(first, MAX_STORED_CHARS);
  let size = JSON.stringify(latest).length;
  let count = 0;
  for (const other of others) {
    size += JSON.stringify(other).length + 1;
    if (size > MAX_STORED_CHARS) break;
    count += 1;
  }
  const kept = others.slice(0, count);
  return (kept.length ? { ...latest, others: kept } : latest) as StoredThread;
}

/**
 * The stored value within the bounds of a save, or `undefined` when it already is (`chars`: the
 * length of its JSON). Data written before the bounds held (a single conversation of thousands of
 * messages), or by another program, is brought under them the way a save would.
 */
export function boundedValue(value: StoredThread, chars: number): StoredThread | undefined {
  const others = (value as StoredConversation).others?.length ?? 0;
  if (chars <= MAX_STORED_CHARS && others < MAX_STORED_CONVERSATIONS) return undefined;
  return storedValue(storedConversations(value)) ?? undefined;
}

const messageIds = (thread: StoredThread) => thread.messages.map((message) => message.id);

/**
 * Whether the messages `ids` hold all of `other`'s up to its last one, in the same order, and maybe
 * more after it. Either may have lost its oldest messages to the bounds, so only where both still
 * reach is compared.
 */
function holds(ids: string[], other: string[]): boolean {
  if (other.length === 0) return true;
  const end = ids.lastIndexOf(other.at(-1)!);
  if (end < 0) return false;
  for (let back = 1; back < other.length && end - back >= 0; back++) {
    if (ids[end - back] !== other[other.length - 1 - back]) return false;
  }
  return true;
}

export interface SaveOutcome {
  /** The stored conversations after the save. */
  list: KeptConversation[];
  /** What the tab knows after it: its conversation's id (a new one after a fork) and revision. */
  ref: ConversationRef;
  /** `written`: replaced or added; `forked`: kept as a new conversation; `unchanged`: nothing to write. */
  outcome: 'written' | 'forked' | 'unchanged';
}

/**
 * Puts a tab's conversation into the stored ones by the rule of this module's header comment.
 * `ref` is the tab's id and the revision it last saw; `now` stamps `updatedAt`.
 */
export function saveConversation(
  list: KeptConversation[],
  ref: ConversationRef,
  thread: StoredThread,
  now: Date,
): SaveOutcome {
  const stored = list.find((item) => item.id === ref.id);
  const rest = list.filter((item) => item !== stored);
  const put = (id: string, revision: number): KeptConversation => ({
    id,
    revision,
    updatedAt: now.toISOString(),
    ...threadOf(thread),
    messages: thread.messages,
  });
  // Not stored (new, or removed by another tab meanwhile): added, so nothing of it is lost.
  if (!stored) {
    const revision = ref.revision + 1;
    return { list: [put(ref.id, revision), ...list], ref: { id: ref.id, revision }, outcome: 'written' };
  }
  const mine = messageIds(thread);
  const theirs = messageIds(stored);
  if (stored.revision === ref.revision || holds(mine, theirs)) {
    const revision = Math.max(stored.revision, ref.revision) + 1;
    return { list: [put(ref.id, revision), ...rest], ref: { id: ref.id, revision }, outcome: 'written' };
  }
  if (holds(theirs, mine)) return { list, ref, outcome: 'unchanged' };
  const id = generateId();
  return { list: [put(id, 1), ...list], ref: { id, revision: 1 }, outcome: 'forked' };
}

/**
 * Saves a tab's conversation into a storage that may hold other tabs' conversations (read first,
 * then written) and gives what the tab knows after it. Saves that would change nothing are skipped.
 */
export function saveToStorage(
  storage: ThreadStorage,
  ref: ConversationRef,
  thread: StoredThread,
): ConversationRef {
  const list = storedConversations(storage.load());
  const stored = list.find((item) => item.id === ref.id);
  if (stored && stored.revision === ref.revision && sameContent(stored, thread)) return ref;
  const saved = saveConversation(list, ref, thread, new Date());
  if (saved.outcome === 'unchanged') return saved.ref;
  const value = storedValue(saved.list);
  if (value) storage.save(value);
  return saved.ref;
}

const sameContent = (a: StoredThread, b: StoredThread) =>
  a.threadId === b.threadId &&
  a.threadKey === b.threadKey &&
  JSON.stringify(a.messages) === JSON.stringify(b.messages);

/** The conversations of a stored value as the history lists them, the one saved last first. */
export function listConversations(value: StoredThread | null): ConversationSummary[] {
  return storedConversations(value)
    .filter((item) => item.messages.length > 0)
    .map(({ id, updatedAt, messages, threadId }) => ({
      id,
      title: (messages.find((message) => message.role === 'user')?.content ?? '').replace(/\s+/g, ' ').trim(),
      ...(updatedAt ? { updatedAt: new Date(updatedAt) } : {}),
      ...(threadId ? { threadId } : {}),
      messages,
    }));
}

/** Removes one conversation (deleted from the history); the others stay. */
export function removeFromStorage(storage: ThreadStorage, id: string): void {
  const list = storedConversations(storage.load());
  const rest = list.filter((item) => item.id !== id);
  const value = storedValue(rest);
  if (value === null) storage.clear();
  else if (rest.length < list.length) storage.save(value);
}

/**
 * What an idle tab shows after another tab changed the stored value: `undefined` to stay as it is,
 * `null` for an empty conversation, or the conversation to show. `shown` is the tab's conversation
 * and whether it shows any messages and was loaded from or saved to the storage.
 */
export function followStored(
  value: StoredThread | null,
  shown: ConversationRef & { empty: boolean; stored: boolean },
): KeptConversation | null | undefined {
  const list = storedConversations(value);
  const own = list.find((item) => item.id === shown.id);
  // Only a newer revision: an older one is a copy from before this tab's last save (written by a
  // tab that had not seen it yet); following it would take the tab's last answer off the screen.
  if (own) return own.revision > shown.revision ? own : undefined;
  // Removed elsewhere (deleted from the history in another tab): start afresh.
  if (shown.stored) return null;
  // Showing nothing yet: take up the conversation saved last.
  if (shown.empty) return list[0];
  return undefined;
}

/**
 * Which conversation this tab showed, kept in the tab's own `sessionStorage` (it survives a reload
 * and is not shared with other tabs), so a reload reopens it rather than whatever another tab saved
 * last. Failures of `sessionStorage` only lose that preference.
 */
export interface TabConversation {
  get(): string | null;
  set(id: string | null): void;
}

/** The tab's conversation for a domain's localStorage conversations. */
export function createTabConversation(domain: string): TabConversation {
  const key = `${threadStorageKey(domain)}:tab`;
  const area = () => (typeof window === 'undefined' ? undefined : window.sessionStorage);
  return {
    get() {
      try {
        return area()?.getItem(key) ?? null;
      } catch {
        return null;
      }
    },
    set(id) {
      try {
        if (id === null) area()?.removeItem(key);
        else area()?.setItem(key, id);
      } catch {
        // Blocked or full: a reload opens the conversation saved last instead.
      }
    },
  };
}

/** The conversation a tab opens: the one it showed before (if still stored), else the one saved last. */
export function openingConversation(
  value: StoredThread | null,
  tabId: string | null,
): KeptConversation | null {
  const list = storedConversations(value);
  return list.find((item) => item.id === tabId) ?? list[0] ?? null;
}
