/**
 * The one way between the shell (launcher, handle) and the lazily loaded panel. The shell calls it
 * whether or not the panel has loaded: what it asks before (a question, text for the box, focus)
 * waits here and is carried out when the panel connects. The panel reports its status back
 * through it, for the root's `data-status`.
 */
import type { AssistantStatus, DocsAssistantState } from '../chat/types.js';
import type { AskSource } from '../events/types.js';

/** What a connected panel does for the shell. */
export interface PanelApi {
  ask(question: string, source: AskSource): void;
  setInput(text: string): void;
  focusInput(): void;
  /** The conversation's state as rendered last (the history methods of the browser API use it). */
  chat(): DocsAssistantState;
}

export interface PanelBridge {
  ask(question: string, source: AskSource): void;
  setInput(text: string): void;
  /** Focuses the question box; false while the panel has not connected (it will on connect). */
  focusInput(): boolean;
  chat(): DocsAssistantState | undefined;
  /** The panel connects once mounted; what was asked meanwhile runs now. Returns its disconnect. */
  connect(api: PanelApi): () => void;
  status(status: AssistantStatus): void;
}

export function createPanelBridge(onStatus: (status: AssistantStatus) => void): PanelBridge {
  let api: PanelApi | null = null;
  let pending: { ask?: [string, AskSource]; input?: string; focus?: boolean } = {};
  return {
    ask(question, source) {
      if (api) api.ask(question, source);
      else pending.ask = [question, source];
    },
    setInput(text) {
      if (api) api.setInput(text);
      else pending.input = text;
    },
    focusInput() {
      if (api) api.focusInput();
      else pending.focus = true;
      return !!api;
    },
    chat: () => api?.chat(),
    connect(next) {
      api = next;
      const { ask, input, focus } = pending;
      pending = {};
      if (input !== undefined) next.setInput(input);
      if (ask) next.ask(...ask);
      if (focus) next.focusInput();
      return () => {
        if (api === next) api = null;
      };
    },
    status: onStatus,
  };
}
