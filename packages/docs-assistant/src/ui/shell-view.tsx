/**
 * What the shell draws: the launcher, the panel's frame (a dialog, an aside or a section), and,
 * until the panel's code is there, what stands in for it under the same header: loading, the
 * consent notice, unavailable (air-gapped) or the failed load's retry.
 */
import { type ReactNode, type RefObject, Suspense } from 'react';
import type { ShellLabels } from '../labels/types.js';
import type { ConsentOptions } from './consent.js';
import { flag } from './dom.js';
import { CHAT, Icon } from './icons.js';
import { PanelHeader } from './panel-header.js';
import { ConsentNotice } from './panel-loader.js';
import type { ClassNames, Variant } from './types.js';

export interface LauncherProps {
  launcherRef: RefObject<HTMLButtonElement | null>;
  className?: string;
  state: 'open' | 'closed';
  failed: boolean;
  variant: Variant;
  controls?: string;
  keyShortcuts?: string;
  text: string;
  onClick: () => void;
  /** Loads the panel's code ahead of the click (hover, focus). */
  preload?: () => void;
}

export function Launcher(props: LauncherProps) {
  const { state, variant } = props;
  return (
    <button
      ref={props.launcherRef}
      type="button"
      className={props.className}
      data-docs-assistant="launcher"
      data-state={state}
      data-failed={flag(props.failed)}
      aria-expanded={state === 'open'}
      aria-controls={props.controls}
      aria-haspopup={variant === 'floating' || variant === 'modal' ? 'dialog' : undefined}
      aria-keyshortcuts={props.keyShortcuts}
      onClick={props.onClick}
      onPointerEnter={props.preload}
      onFocus={props.preload}
    >
      <Icon path={CHAT} />
      <span>{props.text}</span>
    </button>
  );
}

export interface PanelFrameProps {
  panelRef: RefObject<HTMLElement | null>;
  id: string;
  titleId: string;
  variant: Variant;
  state: 'open' | 'closed';
  open: boolean;
  className?: string;
  /** Set while the consent notice describes the panel. */
  describedBy?: string;
  /** Escape closes it (not inline). */
  onEscape?: () => void;
  children: ReactNode;
}

export function PanelFrame(props: PanelFrameProps) {
  const { variant, onEscape } = props;
  const Element = variant === 'side-panel' ? 'aside' : variant === 'inline' ? 'section' : 'div';
  return (
    <Element
      ref={props.panelRef as RefObject<HTMLDivElement>}
      id={props.id}
      className={props.className}
      data-docs-assistant="panel"
      data-variant={variant}
      data-state={props.state}
      // Non-modal: readers keep reading and selecting text in the docs while they chat. Where
      // it covers the whole viewport the panel makes it modal (useFullScreenModal).
      role={variant === 'floating' || variant === 'modal' ? 'dialog' : undefined}
      // The modal variant (a centred dialog over a backdrop) is always modal; the panel traps Tab.
      aria-modal={variant === 'modal' || undefined}
      aria-labelledby={props.titleId}
      aria-describedby={props.describedBy}
      hidden={!props.open}
      tabIndex={-1}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !onEscape || event.defaultPrevented || event.nativeEvent.isComposing)
          return;
        event.preventDefault();
        onEscape();
      }}
    >
      {props.children}
    </Element>
  );
}

export interface StandInProps {
  titleId: string;
  classNames?: ClassNames;
  onClose?: () => void;
  labels: ShellLabels;
  /** What stands in for the panel. */
  kind: 'unavailable' | 'failed' | 'consent' | 'loading';
  onRetry: () => void;
  consent: { options: ConsentOptions; id: string; onAccept: () => void };
}

/** Until the panel is there: its header, and what stands in for it. */
export function PanelStandIn({ titleId, classNames, onClose, labels, kind, onRetry, consent }: StandInProps) {
  return (
    <>
      <PanelHeader titleId={titleId} className={classNames?.header} onClose={onClose} labels={labels} />
      {kind === 'unavailable' || kind === 'failed' ? (
        // Air-gapped, or (inline, which has no launcher) the panel's code failed to load: the
        // panel's error banner for these cases, without loading the panel.
        <div
          data-docs-assistant="error"
          data-error-kind={kind === 'unavailable' ? 'unavailable' : 'network'}
          role="alert"
          className={classNames?.error}
        >
          {kind === 'unavailable' ? (
            <p>{labels.unavailable}</p>
          ) : (
            <button type="button" data-action="retry" onClick={onRetry}>
              {labels.panelUnavailable}
            </button>
          )}
        </div>
      ) : kind === 'consent' ? (
        <Suspense fallback={null}>
          <ConsentNotice options={consent.options} id={consent.id} onAccept={consent.onAccept} />
        </Suspense>
      ) : (
        // While the panel's code loads (and on the server): a busy status.
        <div data-docs-assistant="loading" role="status" aria-busy="true">
          {labels.loading}
        </div>
      )}
    </>
  );
}
