import type { ReactNode } from 'react';
import type { ShellLabels } from '../labels/types.js';
import { CLOSE, Icon } from './icons.js';

export interface PanelHeaderProps {
  titleId: string;
  className?: string;
  /** Omitted where the panel cannot be closed (inline). */
  onClose?: () => void;
  /** The title and Close's name, with the host's overrides: the shell's or the panel's. */
  labels: Pick<ShellLabels, 'title' | 'close'>;
  /** The actions (`HeaderActions`: icon buttons and "More"), placed before Close. */
  children?: ReactNode;
}

/**
 * The panel's one header row: the title (one line; the whole of it in its tooltip when cut), the
 * actions, and Close, always last. The shell shows it before the panel's code loads, so it is
 * the same frame from the first open on. It also names the dialog or region through `titleId`.
 */
export function PanelHeader({ titleId, className, onClose, labels, children }: PanelHeaderProps) {
  return (
    <div data-docs-assistant="header" className={className}>
      <h2 id={titleId} data-docs-assistant="title" title={labels.title}>
        {labels.title}
      </h2>
      {children}
      {onClose ? (
        <button type="button" data-action="close" aria-label={labels.close} onClick={onClose}>
          <Icon path={CLOSE} />
          <span data-docs-assistant="tooltip" aria-hidden="true">
            {labels.close}
          </span>
        </button>
      ) : null}
    </div>
  );
}
