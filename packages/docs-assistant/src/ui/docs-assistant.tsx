'use client';
import {
  type ComponentType,
  forwardRef,
  lazy,
  type RefObject,
  Suspense,
  useCallback,
  useEffect,
  useId,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
} from 'react';
import type { AssistantError, AssistantStatus, UseDocsAssistantOptions } from '../chat/types.js';
import { resolveCollectors } from '../context/collector-options.js';
import { createContextStore } from '../context/store.js';
import { useLazyCollectors } from '../context/use-lazy-collectors.js';
import { emitEvent, errorEvent } from '../events/emit.js';
import type { DocsAssistantEvent, OpenSource } from '../events/types.js';
import { LabelOverrides } from '../labels/context.js';
import { shellLabels } from '../labels/shell.js';
import type { Context } from '../protocol/index.js';
import { consentKey, readConsent, rememberConsent } from './consent.js';
import { cx, flag, visuallyHidden } from './dom.js';
import { Boundary, reportWidgetError } from './error-boundary.js';
import { Icon } from './icons.js';
import { createPanelBridge } from './panel-bridge.js';
import { PanelHeader } from './panel-header.js';
import type { PanelProps } from './panel-types.js';
import type { DocsAssistantHandle, DocsAssistantProps } from './types.js';
import { useHostKeyIsolation } from './use-host-key-isolation.js';
import { ariaKeyShortcuts, isMacPlatform, useParsedShortcut, useShortcut } from './use-shortcut.js';
import { useIsClient, useResolvedTheme } from './use-theme.js';

let panelModule: Promise<typeof import('./panel.js')> | undefined;
/** The panel once loaded, so a later mount renders it at once instead of showing "Loading…". */
let loadedPanel: ComponentType<PanelProps> | undefined;
// The consent notice (the `consent` prop): its own chunk, loaded when it is first shown or when
// consent is withdrawn (it holds `forgetStored`).
const consentView = () => import('../views/consent/consent-notice.js');
const ConsentNotice = lazy(consentView);

/**
 * Loads the heavy panel (chat hook, part renderers, markdown) once; called on the launcher's hover
 * or focus so the code is usually there by the time it is clicked. A failed load may be retried.
 * Not exported: `widget.ts` re-exports this module with `export *`, so its exports are public.
 */
function preloadPanel(): Promise<typeof import('./panel.js')> {
  panelModule ??= import('./panel.js').then(
    (module) => {
      loadedPanel = module.default;
      return module;
    },
    (error: unknown) => {
      panelModule = undefined;
      throw error;
    },
  );
  return panelModule;
}

const CONTEXT_TYPES = new Set(['code', 'textSelection']);

function assertContext(item: Context): void {
  if (!item || !CONTEXT_TYPES.has(item.type) || typeof item.value !== 'string') {
    throw new TypeError(
      `docs-assistant: addContext expects { type: 'code' | 'textSelection', value: string, path?, elementId? }; got ${JSON.stringify(item)}.`,
    );
  }
}

/**
 * The docs assistant: a launcher and a floating dialog, a docked side panel, or an inline panel.
 * This shell stays small; the panel's code loads on first open. Nothing it throws reaches the host:
 * a failure renders a launcher that offers a retry.
 */
export const DocsAssistant = forwardRef<DocsAssistantHandle, DocsAssistantProps>(
  function DocsAssistant(props, ref) {
    const { onError, onEvent, labels, unstyled, className, classNames } = props;
    // Read defensively: this label must render even when the props made the shell throw.
    const text =
      typeof labels?.panelUnavailable === 'string' ? labels.panelUnavailable : shellLabels.panelUnavailable;
    return (
      <Boundary
        onCatch={(cause) =>
          reportWidgetError(
            (error) => {
              emitEvent(onEvent, errorEvent(error));
              onError?.(error);
            },
            'unavailable',
            'The assistant failed to render.',
            cause,
          )
        }
        fallback={(reset) => (
          <div
            data-docs-assistant="root"
            data-state="closed"
            data-styled={flag(!unstyled)}
            className={cx(classNames?.root, className)}
          >
            <button type="button" data-docs-assistant="launcher" data-failed="" onClick={reset}>
              {text}
            </button>
          </div>
        )}
      >
        <Shell {...props} ref={ref} />
      </Boundary>
    );
  },
);

DocsAssistant.displayName = 'DocsAssistant';

const Shell = forwardRef<DocsAssistantHandle, DocsAssistantProps>(function DocsAssistantShell(props, ref) {
  const {
    variant = 'floating',
    open: openProp,
    defaultOpen = false,
    onOpenChange,
    shortcut = 'mod+i',
    starterQuestions: _starterQuestions,
    labels: labelOverrides,
    theme = 'system',
    unstyled = false,
    classNames,
    components: _components,
    collectors,
    docsBaseUrl: _docsBaseUrl,
    allowedImageOrigins: _allowedImageOrigins,
    whenUnavailable = 'message',
    domain,
    apiKey: _apiKey,
    baseUrl: _baseUrl,
    api: _api,
    fp: _fp,
    retrievalPageSize: _retrievalPageSize,
    filter: _filter,
    currentPath: _currentPath,
    storage,
    deployment,
    fetch: _fetch,
    headers: _headers,
    onFinish: _onFinish,
    onError,
    className,
    // The panel reads these from `props` (panelProps.search); taken out here so they stay off the DOM.
    features: _features,
    defaultView: _defaultView,
    sourceAction: _sourceAction,
    consent,
    onEvent,
    eventsIncludeText: _eventsIncludeText,
    feedback: _feedback,
    share: _share,
    support: _support,
    attachments: _attachments,
    ...rootProps
  } = props;

  const labels = useMemo(
    () => (labelOverrides ? { ...shellLabels, ...labelOverrides } : shellLabels),
    [labelOverrides],
  );
  const unavailable = deployment === 'air-gapped';
  const hidden = unavailable && whenUnavailable === 'hidden';
  const inline = variant === 'inline';

  const [store] = useState(() => createContextStore());
  const rootRef = useRef<HTMLDivElement>(null);
  const launcherRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLElement>(null);
  const panelId = useId();
  const titleId = useId();
  const isClient = useIsClient();
  const resolvedTheme = useResolvedTheme(theme);

  // --- consent gate (consent.ts): until granted, no panel code, collector or preload loads ---------
  const consentOptions = consent === true ? {} : consent || undefined;
  const consentStorageKey = consentKey(domain, consentOptions);
  const controlled = consentOptions?.granted;
  // The reader's choice: the remembered acceptance (read in the browser; undefined until then),
  // an accept, or a withdrawal (`false`, which gates even a widget without the `consent` option).
  const [choice, setChoice] = useState<boolean>();
  const gated = (!!consentOptions && consentOptions.required !== false) || choice === false;
  useEffect(() => {
    if (!gated || controlled !== undefined) return;
    const read = () => setChoice(readConsent(consentStorageKey));
    read();
    // Another tab accepting or withdrawing counts here too.
    const onStorage = (event: StorageEvent) => {
      if (event.key === null || event.key === consentStorageKey) read();
    };
    addEventListener('storage', onStorage);
    return () => removeEventListener('storage', onStorage);
  }, [gated, controlled, consentStorageKey]);
  const granted = choice === false ? false : (controlled ?? choice);
  const consented = !gated || granted === true;
  const consentRef = useRef(consentOptions);
  consentRef.current = consentOptions;
  const [forgets, setForgets] = useState(0);
  const setConsent = useCallback(
    (given: boolean) => {
      // Remembered only once given, and only when the host does not decide (`granted`).
      if (given && consentRef.current?.granted === undefined) rememberConsent(consentStorageKey);
      setChoice(given);
      if (!given) setForgets((count) => count + 1);
      consentRef.current?.onChange?.(given);
    },
    [consentStorageKey],
  );
  // Withdrawn (`granted` back to false, another tab, or consent(false)): once the panel has
  // unmounted (it saves on its way out), everything the widget stored goes.
  const before = useRef({ consented, forgets });
  useEffect(() => {
    const was = before.current;
    before.current = { consented, forgets };
    if ((was.consented && !consented) || was.forgets !== forgets) {
      consentView().then(
        (view) => view.forgetStored(domain, consentStorageKey, storage),
        (cause: unknown) => console.error('[docs-assistant] could not delete what was stored', cause),
      );
      void panelModule?.then((module) => module.forgetMemory(domain));
    }
  }, [consented, forgets, domain, consentStorageKey, storage]);
  const [status, setStatus] = useState<AssistantStatus>('ready');
  const [bridge] = useState(() => createPanelBridge(setStatus));
  const withdrawConsent = useCallback(() => setConsent(false), [setConsent]);

  // --- open state (controlled or not; inline is always open) ------------------------------------
  const [uncontrolledOpen, setUncontrolledOpen] = useState(defaultOpen);
  const open = inline || (openProp ?? uncontrolledOpen);
  // The panel's code: loaded on first open. When that fails (offline, or a redeploy removed the
  // hashed chunk), the launcher says so and retries on press; the host page is never affected.
  const [Panel, setPanel] = useState(() => loadedPanel);
  const [loadFailures, setLoadFailures] = useState(0);
  const [loadFailed, setLoadFailed] = useState(false);
  const latest = useRef<{
    open: boolean;
    openProp?: boolean;
    onOpenChange?: (open: boolean) => void;
    onError?: (error: AssistantError) => void;
    onEvent?: (event: DocsAssistantEvent) => void;
    loadFailed: boolean;
  }>(null!);
  latest.current = { open, openProp, onOpenChange, onError, onEvent, loadFailed };
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
      // Opening again after a failed load (shortcut, handle, collectors) tries to load again.
      if (next && latest.current.loadFailed) setLoadFailed(false);
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

  // The link of a shared conversation (`?assistant-share=<id>`) opens the panel on it (views/share).
  const [sharedId, setSharedId] = useState<string | null>(null);
  useEffect(() => {
    const id = new URLSearchParams(location.search).get('assistant-share');
    if (id && !unavailable) {
      setSharedId(id);
      setOpen(true);
    }
  }, [setOpen, unavailable]);

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

  const focusInput = useCallback(() => {
    // Until the input exists, focus the panel itself so Escape and screen readers land there.
    if (!bridge.focusInput()) panelRef.current?.focus();
  }, [bridge]);

  // Focus moves into the panel when it opens and back to the launcher when it closes from inside.
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
    const focusWasInside = !!active && (active === document.body || !!panelRef.current?.contains(active));
    if (restoreFocus.current || focusWasInside) launcherRef.current?.focus();
    restoreFocus.current = false;
  }, [open, focusInput]);

  const closeAndRestore = useCallback(() => {
    restoreFocus.current = true;
    setOpen(false);
  }, [setOpen]);

  const openAndFocus = useCallback(
    (source: OpenSource) => {
      if (hidden) return;
      if (latest.current.loadFailed) retryLoad(source);
      else if (latest.current.open) focusInput();
      else setOpen(true, source);
    },
    [focusInput, setOpen, hidden, retryLoad],
  );

  // --- shortcut -----------------------------------------------------------------------------------
  const parsedShortcut = useParsedShortcut(hidden ? false : shortcut);
  useShortcut(parsedShortcut, rootRef, () => openAndFocus('shortcut'));
  const keyIsolation = useHostKeyIsolation(parsedShortcut, rootProps);
  const [keyShortcuts, setKeyShortcuts] = useState<string>();
  useEffect(() => {
    // The platform is only known in the browser; set after mount so hydration matches.
    setKeyShortcuts(parsedShortcut ? ariaKeyShortcuts(parsedShortcut, isMacPlatform()) : undefined);
  }, [parsedShortcut]);

  // --- collectors: "Ask AI" on the page adds context, opens the panel, focuses the question box ---
  const collectorOptions = resolveCollectors(unavailable || !consented ? false : collectors);
  const onCollect = useCallback(
    (item: Context) => {
      store.add(item);
      openAndFocus(item.type === 'code' ? 'code-block' : 'selection');
    },
    [store, openAndFocus],
  );
  // A host that translated `askAi` but not `askAiAboutCode` gets its own word as the name rather
  // than an English sentence around it (the name must contain the visible text, WCAG 2.5.3).
  const askAiAboutCode =
    labelOverrides?.askAiAboutCode ??
    (labels.askAi === shellLabels.askAi ? shellLabels.askAiAboutCode : labels.askAi);
  // Their code loads on the reader's first interaction with the page, not with the launcher.
  useLazyCollectors({
    ...collectorOptions,
    widgetRef: rootRef,
    onAsk: onCollect,
    label: labels.askAi,
    accessibleLabel: askAiAboutCode,
    shortcut: keyShortcuts,
  });

  // --- imperative handle --------------------------------------------------------------------------
  useImperativeHandle(
    ref,
    () => ({
      open: (options) => setOpen(true, options?.source),
      close: () => setOpen(false),
      addContext(item) {
        assertContext(item);
        return store.add(item);
      },
      ask(question, options) {
        if (typeof question !== 'string' || !question.trim()) {
          throw new TypeError('docs-assistant: ask(question) expects a non-empty string.');
        }
        if (unavailable) return;
        const source = options?.source ?? 'api';
        bridge.ask(question, source);
        setOpen(true, source === 'url' ? 'url' : 'api');
      },
      setInput(text) {
        if (typeof text !== 'string') throw new TypeError('docs-assistant: setInput(text) expects a string.');
        bridge.setInput(text);
      },
      // Withdrawn: the notice again (with or without the `consent` option), and nothing kept.
      consent: setConsent,
      chat: () => bridge.chat(),
    }),
    [setOpen, store, unavailable, setConsent, bridge],
  );

  const wantsPanel = (everOpened || inline) && isClient && !unavailable && !Panel && !loadFailed && consented;
  useEffect(() => {
    if (wantsPanel) loadPanel(false);
  }, [wantsPanel, loadPanel]);

  if (hidden) return null;

  // The props pass through as they are (the hook and the panel read their own by name; listing
  // them again here would cost the launcher bytes), with what the shell decides on top.
  const hookOptions: UseDocsAssistantOptions = { ...props, onError: handleError, contextStore: store };
  const panelProps: PanelProps = {
    ...props,
    options: hookOptions,
    variant,
    open,
    titleId,
    search: props,
    onClose: inline ? undefined : closeAndRestore,
    bridge,
    emit,
    sharedId,
    // Withdrawing is offered where the widget asks for consent and the host does not decide it.
    onWithdrawConsent: consentOptions && consentOptions.granted === undefined ? withdrawConsent : undefined,
  };

  // A floating or side panel that failed to load stays closed: the launcher offers the retry.
  const failedClosed = loadFailed && !inline;
  const state = open && !failedClosed ? 'open' : 'closed';
  const PanelElement = variant === 'side-panel' ? 'aside' : variant === 'inline' ? 'section' : 'div';
  const showPanel = (everOpened || inline) && !failedClosed;
  const unavailableText = labels.panelUnavailable ?? shellLabels.panelUnavailable;
  const preload = unavailable || !consented ? undefined : () => void preloadPanel().catch(() => {});

  return (
    <LabelOverrides.Provider value={labelOverrides}>
      <div
        {...rootProps}
        {...keyIsolation}
        ref={rootRef}
        className={cx(classNames?.root, className)}
        data-docs-assistant="root"
        data-variant={variant}
        data-theme={resolvedTheme}
        data-status={status}
        data-state={state}
        data-styled={flag(!unstyled)}
        data-unavailable={flag(unavailable)}
      >
        {inline ? null : (
          <button
            ref={launcherRef}
            type="button"
            className={classNames?.launcher}
            data-docs-assistant="launcher"
            data-state={state}
            data-failed={flag(loadFailed)}
            aria-expanded={state === 'open'}
            aria-controls={showPanel ? panelId : undefined}
            aria-haspopup={variant === 'floating' || variant === 'modal' ? 'dialog' : undefined}
            aria-keyshortcuts={keyShortcuts}
            onClick={() => {
              if (loadFailed) retryLoad();
              else if (open) closeAndRestore();
              else setOpen(true, 'launcher');
            }}
            onPointerEnter={preload}
            onFocus={preload}
          >
            <Icon name="chat" />
            <span>{loadFailed ? unavailableText : labels.launcher}</span>
          </button>
        )}
        {failedClosed ? (
          // Keyed by the failure, so a retry that fails again is announced again.
          <span key={loadFailures} role="alert" style={visuallyHidden}>
            {unavailableText}
          </span>
        ) : null}
        {showPanel && variant === 'modal' ? (
          // A click beside the dialog closes it; keyboard readers have Escape and the close button.
          // biome-ignore lint/a11y/noStaticElementInteractions: pointer-only convenience, see above
          // biome-ignore lint/a11y/useKeyWithClickEvents: Escape on the dialog does this
          <div data-docs-assistant="backdrop" hidden={state !== 'open'} onClick={closeAndRestore} />
        ) : null}
        {showPanel ? (
          <PanelElement
            ref={panelRef as RefObject<HTMLDivElement>}
            id={panelId}
            className={classNames?.panel}
            data-docs-assistant="panel"
            data-variant={variant}
            data-state={state}
            // Non-modal: readers keep reading and selecting text in the docs while they chat. Where
            // it covers the whole viewport the panel makes it modal (useFullScreenModal).
            role={variant === 'floating' || variant === 'modal' ? 'dialog' : undefined}
            // The modal variant (a centred dialog over a backdrop) is always modal; the panel traps Tab.
            aria-modal={variant === 'modal' || undefined}
            aria-labelledby={titleId}
            aria-describedby={consented ? undefined : `${panelId}c`}
            hidden={!open}
            tabIndex={-1}
            onKeyDown={(event) => {
              if (event.key !== 'Escape' || inline || event.defaultPrevented || event.nativeEvent.isComposing)
                return;
              event.preventDefault();
              closeAndRestore();
            }}
          >
            {Panel && isClient && consented && !unavailable && !loadFailed ? (
              <Panel {...panelProps} />
            ) : (
              // Until the panel is there: its title bar, and what stands in for it.
              <>
                <PanelHeader titleId={titleId} className={classNames?.header} onClose={panelProps.onClose} />
                {unavailable || loadFailed ? (
                  // Air-gapped, or (inline, which has no launcher) the panel's code failed to load:
                  // the panel's ErrorBanner for these cases, without loading the panel.
                  <div
                    data-docs-assistant="error"
                    data-error-kind={unavailable ? 'unavailable' : 'network'}
                    role="alert"
                    className={classNames?.error}
                  >
                    {unavailable ? (
                      <p>{labels.unavailable}</p>
                    ) : (
                      <button type="button" data-action="retry" onClick={() => retryLoad()}>
                        {unavailableText}
                      </button>
                    )}
                  </div>
                ) : !consented && granted !== undefined ? (
                  <Suspense fallback={null}>
                    <ConsentNotice
                      options={consentOptions ?? {}}
                      id={`${panelId}c`}
                      onAccept={() => setConsent(true)}
                    />
                  </Suspense>
                ) : (
                  // While the panel's code loads (and on the server): a busy status.
                  <div data-docs-assistant="loading" role="status" aria-busy="true">
                    {labels.loading ?? shellLabels.loading}
                  </div>
                )}
              </>
            )}
          </PanelElement>
        ) : null}
      </div>
    </LabelOverrides.Provider>
  );
});

Shell.displayName = 'DocsAssistantShell';
