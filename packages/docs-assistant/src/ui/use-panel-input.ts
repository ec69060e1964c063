/**
 * The question box's text, the files attached to the next question, and the bridge to the shell:
 * what the shell asked before the panel loaded (a question, text for the box, focus) is carried
 * out when it connects, and the shell hears the chat's status.
 */
import { type RefObject, useEffect, useRef, useState } from 'react';
import type { DocsAssistantState } from '../chat/types.js';
import type { AskSource } from '../events/types.js';
import type { DraftAttachment } from './lazy-views.js';
import type { PanelBridge } from './panel-bridge.js';
import { useStableCallback } from './use-stable-callback.js';

export function usePanelInput() {
  const [input, setInput] = useState('');
  const inputRef = useRef<HTMLTextAreaElement>(null);
  // Files attached to the next question; `incoming` are files not yet read (the tray loads with the
  // first, and takes them out as it reads them, so batches coming close together add up).
  const [attached, setAttached] = useState<DraftAttachment[]>([]);
  const [incoming, setIncoming] = useState<File[] | null>(null);
  const addFiles = useStableCallback((files: File[]) =>
    setIncoming((waiting) => [...(waiting ?? []), ...files]),
  );
  const takeFiles = (files: File[]) =>
    setIncoming((waiting) => waiting?.filter((file) => !files.includes(file)) ?? null);
  /** The attached files for the question going out now (and none for the next). */
  const takeAttachments = () => {
    if (!attached.length) return undefined;
    setAttached([]);
    return { attachments: attached.map(({ name, contentType, url }) => ({ name, contentType, url })) };
  };
  const focus = () => inputRef.current?.focus();
  return {
    input,
    setInput,
    inputRef,
    focus,
    attached,
    setAttached,
    incoming,
    addFiles,
    takeFiles,
    takeAttachments,
  };
}

/** Connects the panel to the shell's bridge for as long as it is mounted. */
export function useBridge(
  bridge: PanelBridge,
  state: DocsAssistantState,
  handlers: { ask: (question: string, source: AskSource) => void; setInput: (text: string) => void },
  inputRef: RefObject<HTMLTextAreaElement | null>,
): void {
  const latest = useRef({ state, handlers });
  latest.current = { state, handlers };
  useEffect(
    () =>
      bridge.connect({
        ask: (question, source) => latest.current.handlers.ask(question, source),
        setInput: (text) => latest.current.handlers.setInput(text),
        focusInput: () => inputRef.current?.focus(),
        chat: () => latest.current.state,
      }),
    [bridge, inputRef],
  );
  const { status } = state;
  useEffect(() => bridge.status(status), [bridge, status]);
}
