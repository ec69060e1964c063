/**
 * The shell's state: open or closed (controlled or not; inline is always open), the panel's code
 * (loaded on first open; when that fails, offline or after a redeploy removed the hashed chunk,
 * the launcher says so and retries on press, and the host page is never affected), where focus
 * goes when the panel opens and closes, and the page's share link.
 */
import { type ComponentType, type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import type { AssistantError } from '../chat/types.js';
import { emitEvent, errorEvent } from '../events/emit.js';
import type { DocsAssistantEvent, OpenSource } from '../events/types.js';
import { reportWidgetError } from './error-boundary.js';
import type { PanelBridge } from './panel-bridge.js';
import { loadedPanelCode, preloadPanel } from './panel-loader.js';
import type { PanelProps } from './panel-types.js';
import type { DocsAssistantProps } from './types.js';

type OpenProps = Pick<DocsAssistantProps, 'open' | 'defaultOpen' | 'onOpenChange' | 'onEvent' | 'onError'>;

export function useOpenState(props: OpenProps, inline: boolean) {
  const { open: openProp, defaultOpen = false, onOpenChange, onEvent, onError } = props;
  const [uncontrolledOpen, setUncontrolledOpen] = useState(defaultOpen);
  const open = inline || (openProp ?? uncontrolledOpen);
  const latest = useRef({ open, openProp, onOpenChange, onEvent, onError });
  latest.current = { open, openProp, onOpenChange, onEvent, onError };
  // Opening again after a failed load (shortcut, handle, collectors) tries to load again.
  const beforeOpen = useRef(() => {});
  const emit = useCallback((event: DocsAssistantEvent) => emitEvent(latest.current.onEvent, event), []);
  const handleError = useCallback(
    (error: AssistantError) => {
      emit(errorEvent(error));
      latest.current.onError?.(error);
    },
    [emit],
  );
  const setOpen = useCallback(
    (next: boolean, source: OpenSource = 'api') => {
      if (next) beforeOpen.current();
      if (inline || latest.current.open === next) return;
      if (latest.current.openProp === undefined) setUncontrolledOpen(next);
      latest.current.onOpenChange?.(next);
      emit(next ? { type: 'open', source } : { type: 'close' });
    },
    [inline, emit],
  );
  // Once opened, the panel stays mounted (hidden when closed) so a streaming answer continues.
  const [everOpened, setEverOpened] = useState(open);
  if (open && !everOpened) setEverOpened(true);
  return { open, setOpen, everOpened, emit, handleError, beforeOpen, isOpen: () => latest.current.open };
}

/** The panel's code, loaded when `wanted` (or on a retry), opening the panel once there when asked. */
export function usePanelCode(
  wanted: boolean,
  {
    setOpen,
    handleError,
    beforeOpen,
  }: Pick<ReturnType<typeof useOpenState>, 'setOpen' | 'handleError' | 'beforeOpen'>,
) {
  const [Panel, setPanel] = useState<ComponentType<PanelProps> | undefined>(loadedPanelCode);
  const [loadFailures, setLoadFailures] = useState(0);
  const [loadFailed, setLoadFailed] = useState(false);
  const failed = useRef(loadFailed);
  failed.current = loadFailed;
  beforeOpen.current = () => {
    if (failed.current) setLoadFailed(false);
  };
  const loading = useRef(false);
  const loadPanel = useCallback(
    (openWhenLoaded: OpenSource | false) => {
      if (loading.current) return;
      loading.current = true;
      preloadPanel().then(
        (module) => {
          loading.current = false;
          setPanel(() => module.default);
          setLoadFailed(false);
          if (openWhenLoaded) setOpen(true, openWhenLoaded);
        },
        (cause: unknown) => {
          loading.current = false;
          setLoadFailed(true);
          setLoadFailures((count) => count + 1);
          setOpen(false);
          reportWidgetError(handleError, 'network', 'The assistant’s code could not be loaded.', cause);
        },
      );
    },
    [setOpen, handleError],
  );
  const retryLoad = useCallback((source: OpenSource = 'launcher') => loadPanel(source), [loadPanel]);
  const load = wanted && !Panel && !loadFailed;
  useEffect(() => {
    if (load) loadPanel(false);
  }, [load, loadPanel]);
  return { Panel, loadFailed, loadFailures, retryLoad, hasFailed: () => failed.current };
}

/**
 * Focus moves into the panel when it opens (the question box, else the panel itself until its code
 * is there, so Escape and screen readers land in it) and back to the launcher when it closes from
 * inside. Returns the focusing of the question box and the close that gives focus back.
 */
export function useShellFocus(
  open: boolean,
  setOpen: (open: boolean) => void,
  bridge: PanelBridge,
  refs: { panel: RefObject<HTMLElement | null>; launcher: RefObject<HTMLButtonElement | null> },
) {
  const focusInput = useCallback(() => {
    if (!bridge.focusInput()) refs.panel.current?.focus();
  }, [bridge, refs]);
  const wasOpen = useRef(open);
  const restoreFocus = useRef(false);
  useEffect(() => {
    if (wasOpen.current === open) return;
    wasOpen.current = open;
    if (open) {
      focusInput();
      return;
    }
    const active = document.activeElement;
    const focusWasInside = !!active && (active === document.body || !!refs.panel.current?.contains(active));
    if (restoreFocus.current || focusWasInside) refs.launcher.current?.focus();
    restoreFocus.current = false;
  }, [open, focusInput, refs]);
  const closeAndRestore = useCallback(() => {
    restoreFocus.current = true;
    setOpen(false);
  }, [setOpen]);
  return { focusInput, closeAndRestore };
}

/** The link of a shared conversation (`?assistant-share=<id>`) opens the panel on it (views/share). */
export function useSharedLink(setOpen: (open: boolean) => void, unavailable: boolean): string | null {
  const [sharedId, setSharedId] = useState<string | null>(null);
  useEffect(() => {
    const id = new URLSearchParams(location.search).get('assistant-share');
    if (id && !unavailable) {
      setSharedId(id);
      setOpen(true);
    }
  }, [setOpen, unavailable]);
  return sharedId;
}
