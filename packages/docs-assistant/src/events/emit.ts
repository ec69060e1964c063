/**
 * Delivers an event to the owner's `onEvent`. Whatever the handler throws stays here: the widget
 * carries on, and the first failure is logged once (a handler that throws on every event would
 * otherwise fill the console).
 */
import type { AssistantError } from '../chat/types.js';
import type { AssistantErrorEvent, DocsAssistantEvent, EventHandler } from './types.js';

let reported = false;

export function emitEvent(handler: EventHandler | undefined, event: DocsAssistantEvent): void {
  try {
    handler?.(event);
  } catch (error) {
    if (!reported) console.error('[docs-assistant] onEvent threw:', error);
    reported = true;
  }
}

/**
 * The `error` event of a mapped error: what it is, never the message or the server's text. A field
 * without a value stays undefined (JSON drops it), here and in every event: fewer bytes to ship.
 */
export const errorEvent = ({ kind, status, retryable, origin }: AssistantError): AssistantErrorEvent => ({
  type: 'error',
  kind,
  status,
  retryable,
  origin,
});
