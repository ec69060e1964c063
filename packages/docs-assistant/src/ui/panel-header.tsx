import type { ReactNode } from 'react';
import { useLabels } from '../labels.js';
import { Icon } from './icons.js';

export interface PanelHeaderProps {
  titleId: string;
  className?: string;
  /** Omitted for the inline variant, which cannot be closed. */
  onClose?: () => void;
  /** Extra actions (e.g. "New conversation"), placed before the close button. */
  children?: ReactNode;
}

/** The panel's title bar; it also names the dialog/region through `titleId`. */
export function PanelHeader({ titleId, className, onClose, children }: PanelHeaderProps) {
  const labels = useLabels();
  return (
    <div data-docs-assistant="header" className={className}>
      <h2 id={titleId} data-docs-assistant="title">
        {labels.title}
      </h2>
      {children}
      {onClose ? (
        <button
          type="button"
          data-action="close"
          aria-label={labels.close}
          title={labels.close}
          onClick={onClose}
        >
          <Icon name="close" />
        </button>
      ) : null}
    </div>
  );
}
