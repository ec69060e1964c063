/**
 * One conversation as the controller shows it (`Session`): which stored conversation it is, its
 * thread and the messages it opened with, and how it is saved without dropping what other tabs
 * saved (the rule in `storage.ts`). Also the answer a retry holds while it waits (`HeldAnswer`).
 */
import { generateId } from '@ai-sdk/ui-utils';
import {
  type ConversationRef,
  type KeptConversation,
  saveToStorage,
  type TabConversation,
} from './storage.js';
import { threadOf } from './trace.js';
import type { AssistantMessage, StoredThread, ThreadStorage } from './types.js';

/** Where a conversation is kept and sent: another storage, tab memory or endpoint is another conversation. */
export interface Place {
  storage: ThreadStorage;
  /** Per tab, which of the domain's localStorage conversations it shows (null for other storages). */
  tab: TabConversation | null;
  /** Where questions go; undefined while the options are wrong (nothing is sent). */
  endpoint: string | undefined;
}

/**
 * One conversation: a fresh `id` per conversation gives the transport an empty message list for it.
 * (The id alone would not keep a late update of the previous request out: `useChat`'s state setters
 * write to whatever id it shows when they run. The batches leave no update pending after a request
 * instead; see `batchLines`.)
 */
export interface Session extends Place {
  id: string;
  initialMessages: AssistantMessage[];
  threadId?: string;
  threadKey?: string;
  /**
   * Which stored conversation this is and the revision the tab last loaded or saved (see the rule
   * in `storage.ts`). Updated in place by each save: copies of the session share it.
   */
  conversation: ShownConversation;
}

export interface ShownConversation extends ConversationRef {
  /** Loaded from or saved to the storage (a removal there empties the tab). */
  stored: boolean;
  /** A new conversation the reader started: while empty, it does not take up another tab's. */
  fresh?: boolean;
}

export function openSession({ storage, tab, endpoint }: Place, thread: KeptConversation | null): Session {
  return {
    storage,
    tab,
    endpoint,
    id: generateId(),
    conversation: thread
      ? { id: thread.id, revision: thread.revision, stored: true }
      : { id: generateId(), revision: 0, stored: false },
    initialMessages: thread?.messages ?? [],
    ...threadOf(thread),
  };
}

/**
 * Attached files are not kept: their data URLs (up to 50 MB a question) would fill localStorage, and
 * they went to the service with their question (the wire sends them with the latest message only).
 */
function withoutAttachments(message: AssistantMessage): AssistantMessage {
  if (!message.experimental_attachments) return message;
  const { experimental_attachments: _sent, ...kept } = message;
  return kept;
}

/** Saves the conversation a session shows without dropping what other tabs saved (the rule in `storage.ts`). */
export function saveShown(session: Session, messages: AssistantMessage[]): void {
  const { storage, tab, conversation } = session;
  const thread: StoredThread = { ...threadOf(session), messages: messages.map(withoutAttachments) };
  const ref = saveToStorage(storage, conversation, thread);
  conversation.id = ref.id;
  conversation.revision = ref.revision;
  conversation.stored = true;
  tab?.set(ref.id);
}

/**
 * The answer a `retry()` replaces. The transport drops it from the conversation as the retry is
 * sent; the controller keeps it in storage meanwhile and shows it again if nothing of a new answer
 * arrived.
 */
export interface HeldAnswer {
  sessionId: string;
  message: AssistantMessage;
}

/** The messages with the held answer in place of whatever the retry has shown so far (nothing or an empty answer). */
export function withHeld(
  messages: AssistantMessage[],
  held: HeldAnswer | null | undefined,
): AssistantMessage[] {
  if (!held) return messages;
  const base = messages.at(-1)?.role === 'assistant' ? messages.slice(0, -1) : messages;
  return [...base, held.message];
}
