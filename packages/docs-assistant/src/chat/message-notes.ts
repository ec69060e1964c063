/**
 * What the widget notes on a message for itself, kept with the conversation (storage keeps a
 * message's `annotations`) and never sent (`wire-messages.ts` leaves these out): the context a
 * question went with, and that the reader stopped an answer (or a question before any answer).
 * Also the one reading of a message's text that the copy, the history and the support transcript
 * share.
 */
import type { Context } from '../protocol/index.js';
import { isRecord } from '../protocol/search-results.js';
import type { AssistantMessage } from './types.js';

export interface MessageNote {
  /** The context items (selection, code) sent with this question. */
  context?: Context[];
  /** The reader stopped this answer before it was complete, or this question before any answer. */
  stopped?: true;
}

/** The annotation that carries a note: `{ docsAssistant: MessageNote }`. */
export const isNoteAnnotation = (annotation: unknown): boolean =>
  isRecord(annotation) && isRecord(annotation.docsAssistant);

/** The widget's note on a message (empty when it has none). */
export function noteOf(message: Pick<AssistantMessage, 'annotations'>): MessageNote {
  const found = (Array.isArray(message.annotations) ? message.annotations : []).find(isNoteAnnotation);
  return found ? (found as unknown as { docsAssistant: MessageNote }).docsAssistant : {};
}

/** The message with its note changed (`undefined` fields removed); the message itself when nothing changes. */
export function withNote<M extends AssistantMessage>(message: M, change: Partial<MessageNote>): M {
  const note: Record<string, unknown> = { ...noteOf(message), ...change };
  for (const key of Object.keys(note)) if (note[key] === undefined) delete note[key];
  const others = (message.annotations ?? []).filter((annotation) => !isNoteAnnotation(annotation));
  const annotations = Object.keys(note).length ? [...others, { docsAssistant: note }] : others;
  if (JSON.stringify(annotations) === JSON.stringify(message.annotations ?? [])) return message;
  return { ...message, annotations: annotations.length ? annotations : undefined };
}

/**
 * The text of a message: its text parts, each a block of its own (a blank line between parts of
 * different steps), else its `content`; trimmed.
 */
export function messageText(message: Pick<AssistantMessage, 'parts' | 'content'>): string {
  const texts = (Array.isArray(message.parts) ? message.parts : []).flatMap((part) =>
    part.type === 'text' && typeof part.text === 'string' && part.text.trim() ? [part.text.trim()] : [],
  );
  if (texts.length) return texts.join('\n\n');
  return typeof message.content === 'string' ? message.content.trim() : '';
}

/**
 * Without the turn that got no answer at its end: a question whose request was stopped or failed
 * before any text came (`ended` says so), with the empty answer begun for it. Asking again then
 * never shows the question twice.
 */
export function withoutUnansweredTurn<M extends AssistantMessage>(messages: M[], ended: boolean): M[] {
  let end = messages.length;
  const last = messages[end - 1];
  if (last?.role === 'assistant' && ended && !messageText(last)) end -= 1;
  if (messages[end - 1]?.role !== 'user') return messages;
  return messages.slice(0, end - 1);
}
