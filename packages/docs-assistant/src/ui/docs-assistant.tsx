'use client';
import {
  type ForwardedRef,
  forwardRef,
  type RefObject,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import type { AssistantStatus } from '../chat/types.js';
import { createContextStore } from '../context/store.js';
import { emitEvent, errorEvent } from '../events/emit.js';
import type { OpenSource } from '../events/types.js';
import { withLabels } from '../labels/merge.js';
import { shellLabels } from '../labels/shell.js';
import { cx, flag, visuallyHidden } from './dom.js';
import { Boundary, reportWidgetError } from './error-boundary.js';
import { shellFrame } from './frame.js';
import { createPanelBridge } from './panel-bridge.js';
import { preloadPanel } from './panel-loader.js';
import type { PanelProps } from './panel-types.js';
import { rootPropsOf } from './shell-props.js';
import { Launcher, PanelFrame, PanelStandIn } from './shell-view.js';
import type { DocsAssistantHandle, DocsAssistantProps } from './types.js';
import { useConsentGate } from './use-consent-gate.js';
import { useHostKeyIsolation } from './use-host-key-isolation.js';
import { useShellCollectors, useShellHandle } from './use-shell-handle.js';
import { useOpenState, usePanelCode, useSharedLink, useShellFocus } from './use-shell-state.js';
import { ariaKeyShortcuts, isMacPlatform, useParsedShortcut, useShortcut } from './use-shortcut.js';
import { useIsClient, useResolvedTheme } from './use-theme.js';

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
  const shell = useShell(props, ref);
  if (shell.hidden) return null;
  const { variant = 'floating', classNames } = props;
  const { code, opening, gate, refs, ids, labels } = shell;
  return (
    <div
      {...rootPropsOf(props)}
      {...shell.keyIsolation}
      ref={refs.root}
      className={cx(classNames?.root, props.className)}
      data-docs-assistant="root"
      data-variant={variant}
      data-theme={shell.resolvedTheme}
      data-status={shell.status}
      data-state={shell.state}
      data-styled={flag(!props.unstyled)}
      data-unavailable={flag(shell.unavailable)}
    >
      {shell.inline ? null : (
        <Launcher
          launcherRef={refs.launcher}
          className={classNames?.launcher}
          state={shell.state}
          failed={code.loadFailed}
          variant={variant}
          controls={shell.showPanel ? ids.panel : undefined}
          keyShortcuts={shell.shortcuts.aria}
          text={code.loadFailed ? labels.panelUnavailable : labels.launcher}
          onClick={shell.onLauncher}
          preload={
            shell.unavailable || !gate.consented ? undefined : () => void preloadPanel().catch(() => {})
          }
        />
      )}
      {shell.failedClosed ? (
        // Keyed by the failure, so a retry that fails again is announced again.
        <span key={code.loadFailures} role="alert" style={visuallyHidden}>
          {labels.panelUnavailable}
        </span>
      ) : null}
      {shell.showPanel && variant === 'modal' ? (
        // A click beside the dialog closes it; keyboard readers have Escape and the close button.
        // biome-ignore lint/a11y/noStaticElementInteractions: pointer-only convenience, see above
        // biome-ignore lint/a11y/useKeyWithClickEvents: Escape on the dialog does this
        <div data-docs-assistant="backdrop" hidden={shell.state !== 'open'} onClick={shell.closeAndRestore} />
      ) : null}
      {shell.showPanel ? (
        <PanelFrame
          panelRef={refs.panel}
          id={ids.panel}
          titleId={ids.title}
          variant={variant}
          state={shell.state}
          open={opening.open}
          className={classNames?.panel}
          describedBy={gate.consented ? undefined : `${ids.panel}c`}
          onEscape={shell.onClose}
        >
          <ShellPanel props={props} shell={shell} />
        </PanelFrame>
      ) : null}
    </div>
  );
});

Shell.displayName = 'DocsAssistantShell';

type ShellModel = ReturnType<typeof useShell>;

/** The panel once its code is there, else what stands in for it under the same header. */
function ShellPanel({ props, shell }: { props: DocsAssistantProps; shell: ShellModel }) {
  const { code, gate, ids, opening } = shell;
  const { Panel } = code;
  if (Panel && shell.isClient && gate.consented && !shell.unavailable && !code.loadFailed) {
    // The props pass through as they are (the hook and the panel read their own by name; listing
    // them again here would cost the launcher bytes), with what the shell decides on top.
    const options: PanelProps['options'] = {
      ...props,
      onError: opening.handleError,
      contextStore: shell.store,
    };
    const panelProps: PanelProps = {
      ...props,
      options,
      variant: props.variant ?? 'floating',
      open: opening.open,
      titleId: ids.title,
      search: props,
      onClose: shell.onClose,
      bridge: shell.bridge,
      emit: opening.emit,
      sharedId: shell.sharedId,
      onWithdrawConsent: gate.withdrawable ? shell.withdraw : undefined,
      frame: shellFrame,
    };
    return <Panel {...panelProps} />;
  }
  const kind = shell.unavailable
    ? 'unavailable'
    : code.loadFailed
      ? 'failed'
      : !gate.consented && gate.granted !== undefined
        ? 'consent'
        : 'loading';
  return (
    <PanelStandIn
      titleId={ids.title}
      classNames={props.classNames}
      onClose={shell.onClose}
      labels={shell.labels}
      kind={kind}
      onRetry={() => code.retryLoad()}
      consent={{ options: gate.options ?? {}, id: `${ids.panel}c`, onAccept: () => gate.setConsent(true) }}
    />
  );
}

/** Everything the shell decides, from its props: state, the panel's code, focus, the host's ways in. */
function useShell(props: DocsAssistantProps, ref: ForwardedRef<DocsAssistantHandle>) {
  const { variant = 'floating', deployment } = props;
  const labels = useMemo(() => withLabels(shellLabels, props.labels), [props.labels]);
  const unavailable = deployment === 'air-gapped';
  const hidden = unavailable && props.whenUnavailable === 'hidden';
  const inline = variant === 'inline';
  const [store] = useState(() => createContextStore());
  const refs = useShellRefs();
  const ids = { panel: useId(), title: useId() };
  const isClient = useIsClient();
  const resolvedTheme = useResolvedTheme(props.theme ?? 'system');
  const gate = useConsentGate(props.consent, props.domain, props.storage);
  const [status, setStatus] = useState<AssistantStatus>('ready');
  const [bridge] = useState(() => createPanelBridge(setStatus));
  const opening = useOpenState(props, inline);
  const { open, setOpen } = opening;
  const code = usePanelCode(
    (opening.everOpened || inline) && isClient && !unavailable && gate.consented,
    opening,
  );
  const sharedId = useSharedLink(setOpen, unavailable);
  const { focusInput, closeAndRestore } = useShellFocus(open, setOpen, bridge, refs);
  const openAndFocus = useCallback(
    (source: OpenSource) => {
      if (hidden) return;
      if (code.hasFailed()) code.retryLoad(source);
      else if (opening.isOpen()) focusInput();
      else setOpen(true, source);
    },
    [focusInput, setOpen, hidden, code, opening],
  );
  const shortcuts = useShellShortcut(hidden ? false : props.shortcut, refs.root, openAndFocus);
  const keyIsolation = useHostKeyIsolation(shortcuts.parsed, props);
  const on = !unavailable && gate.consented;
  const { collectors, labels: overrides } = props;
  useShellCollectors({
    collectors,
    on,
    rootRef: refs.root,
    store,
    openAndFocus,
    labels,
    overrides,
    keyShortcuts: shortcuts.aria,
  });
  useShellHandle(ref, { setOpen, store, bridge, unavailable, setConsent: gate.setConsent });
  const withdraw = useCallback(() => gate.setConsent(false), [gate.setConsent]);
  // A floating or side panel that failed to load stays closed: the launcher offers the retry.
  const failedClosed = code.loadFailed && !inline;
  const state: 'open' | 'closed' = open && !failedClosed ? 'open' : 'closed';
  const onLauncher = () =>
    code.loadFailed ? code.retryLoad() : open ? closeAndRestore() : setOpen(true, 'launcher');
  return {
    ...{
      labels,
      unavailable,
      hidden,
      inline,
      store,
      refs,
      ids,
      isClient,
      resolvedTheme,
      gate,
      status,
      bridge,
    },
    ...{ opening, code, sharedId, closeAndRestore, shortcuts, keyIsolation, withdraw, failedClosed, state },
    onClose: inline ? undefined : closeAndRestore,
    showPanel: (opening.everOpened || inline) && !failedClosed,
    onLauncher,
  };
}

function useShellRefs() {
  const root = useRef<HTMLDivElement>(null);
  const launcher = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLElement>(null);
  return useMemo(() => ({ root, launcher, panel }), []);
}

/** The widget's shortcut (opens and focuses), and its `aria-keyshortcuts` once the platform is known. */
function useShellShortcut(
  shortcut: string | false | undefined,
  rootRef: RefObject<HTMLDivElement | null>,
  openAndFocus: (source: OpenSource) => void,
) {
  const parsed = useParsedShortcut(shortcut ?? 'mod+i');
  useShortcut(parsed, rootRef, () => openAndFocus('shortcut'));
  const [aria, setAria] = useState<string>();
  useEffect(() => {
    // The platform is only known in the browser; set after mount so hydration matches.
    setAria(parsed ? ariaKeyShortcuts(parsed, isMacPlatform()) : undefined);
  }, [parsed]);
  return { parsed, aria };
}
