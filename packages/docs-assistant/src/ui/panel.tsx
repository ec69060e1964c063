/**
 * The heavy half of the widget, loaded with `React.lazy` on first open: the chat hook, the part
 * renderers (markdown) and the conversation UI. The shell (`docs-assistant.tsx`) stays small.
 *
 * The panel is a header (the title, the actions as data, Close), what the view shows
 * (`panel-content.tsx`, one view of the union in `panel-view.ts`), the context chips, the
 * question box and a live region. Its state is the chat (`use-panel-chat.ts`), the view, and the
 * question box (`use-panel-input.ts`); what the header's actions do is `use-panel-commands.ts`.
 */
import { type RefObject, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { createMemoryThreadStorage, threadStorageKey } from '../chat/storage.js';
import { LabelsProvider, useLabels } from '../labels/index.js';
import { panelLabels } from '../labels/panel.js';
import type { CoreLabels } from '../labels/types.js';
import { warmUp as warmUpMarkdown } from '../parts/parse-off-thread.js';
import { Composer } from './composer.js';
import { ContextChips } from './context-chips.js';
import { HeaderActions } from './header-actions.js';
import { PanelContent, PanelErrorBanner } from './panel-content.js';
import type { PanelProps } from './panel-types.js';
import { ShellFrameContext } from './shell-frame.js';
import { useFullScreenModal } from './use-full-screen-modal.js';
import { Announcer, usePanelChat } from './use-panel-chat.js';
import { usePanelCommands } from './use-panel-commands.js';
import { useInsightsBeacon, usePanelClicks } from './use-panel-events.js';
import { useBridge, usePanelInput } from './use-panel-input.js';
import { usePanelView } from './use-panel-view.js';

export type { PanelProps };

/** Consent withdrawn: the conversation kept in memory (`storage="memory"`) goes too. */
export const forgetMemory = (domain: string): void =>
  createMemoryThreadStorage(threadStorageKey(domain)).clear();

/**
 * The panel, with an error boundary: an exception while rendering it (or in its effects) stays
 * in the panel, which says so and offers Retry; the launcher and the host page carry on. The labels
 * (the defaults with the host's `labels`) and the shell's frame reach everything in it from here.
 */
export default function Panel(props: PanelProps) {
  const { frame } = props;
  const { Boundary, reportWidgetError } = frame;
  // The shell's own defaults and the merge are the launcher's: the shell hands them over.
  const labels = useMemo(() => {
    const defaults: CoreLabels = { ...frame.shellLabels, ...panelLabels };
    return frame.withLabels(defaults, props.labels);
  }, [frame, props.labels]);
  return (
    <ShellFrameContext.Provider value={frame}>
      <LabelsProvider labels={labels}>
        <Boundary
          onCatch={(cause) =>
            reportWidgetError(
              props.options.onError,
              'unavailable',
              'The assistant’s panel failed to render.',
              cause,
            )
          }
          fallback={(reset) => <PanelCrashed {...props} onRetry={reset} />}
        >
          <PanelBody {...props} />
        </Boundary>
      </LabelsProvider>
    </ShellFrameContext.Provider>
  );
}

/**
 * In place of a panel body that threw while rendering: the title bar (so it can still be closed) and a
 * Retry that renders the panel again (the conversation is restored from storage).
 */
function PanelCrashed({
  titleId,
  classNames,
  onClose,
  onRetry,
  frame,
}: PanelProps & { onRetry: () => void }) {
  const labels = useLabels();
  const retryRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    // Focus was in the panel's content that just went away: keep it in the panel.
    const active = document.activeElement;
    if (!active || active === document.body) retryRef.current?.focus();
  }, []);
  return (
    <>
      <frame.Header titleId={titleId} className={classNames?.header} onClose={onClose} labels={labels} />
      <div
        data-docs-assistant="error"
        data-error-kind="unavailable"
        role="alert"
        className={classNames?.error}
      >
        <p>{labels.panelCrashed}</p>
        <button ref={retryRef} type="button" data-action="retry" onClick={onRetry}>
          {labels.retry}
        </button>
      </div>
    </>
  );
}

function PanelBody(props: PanelProps) {
  const labels = useLabels();
  const chat = usePanelChat(props, labels);
  const box = usePanelInput();
  const views = usePanelView(props, chat.configError);
  const panelRef = usePanelElement(box.inputRef);
  const dialog = props.variant === 'floating' || props.variant === 'modal';
  useFullScreenModal(panelRef, dialog && props.open, box.inputRef, props.variant === 'modal');
  usePanelClicks(panelRef, chat.emit, views.onPreview);
  useInsightsBeacon(
    panelRef,
    { options: props.options, threadId: chat.state.threadId },
    box.inputRef,
    chat.configError,
  );
  const commands = usePanelCommands(props, labels, chat, box, views);
  useBridge(props.bridge, chat.state, commands.bridge, box.inputRef);
  const { classNames, frame } = props;
  return (
    <>
      <frame.Header
        titleId={props.titleId}
        className={classNames?.header}
        onClose={props.onClose}
        labels={labels}
      >
        <HeaderActions actions={commands.actions} moreLabel={labels.moreActions} />
      </frame.Header>
      <PanelContent props={props} labels={labels} chat={chat} box={box} views={views} commands={commands} />
      <PanelErrorBanner commands={commands} className={classNames?.error} shown={!commands.errorInList} />
      <ContextChips
        items={chat.state.context.items}
        onRemove={chat.state.context.remove}
        fallbackFocusRef={box.inputRef}
        className={classNames?.context}
      />
      {commands.notice ? (
        <p data-docs-assistant="notice" role="status">
          {commands.notice}
        </p>
      ) : null}
      <Composer
        onFiles={props.attachments ? box.addFiles : undefined}
        value={box.input}
        onValueChange={commands.changeInput}
        onSubmit={commands.submitInput}
        onStop={chat.state.stop}
        busy={chat.busy}
        disabled={!!chat.configError || views.view.name === 'shared'}
        inputRef={box.inputRef}
        className={classNames?.composer}
        inputClassName={classNames?.input}
      />
      <Announcer text={chat.announcement} />
    </>
  );
}

/** The shell's panel element (this component renders inside it); the Markdown worker starts while idle. */
function usePanelElement(inputRef: RefObject<HTMLTextAreaElement | null>) {
  const panelRef = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    panelRef.current = inputRef.current?.closest<HTMLElement>('[data-docs-assistant="panel"]') ?? null;
  }, [inputRef]);
  // The Markdown worker starts while the reader reads or types, not in the first answer's frames.
  useEffect(() => whenIdle(warmUpMarkdown), []);
  return panelRef;
}

/** Runs `task` once the page is idle (within 2 s); returns what cancels it. */
function whenIdle(task: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(task, { timeout: 2_000 });
    return () => cancelIdleCallback(id);
  }
  // Safari has no idle callbacks.
  const timer = setTimeout(task, 200);
  return () => clearTimeout(timer);
}
