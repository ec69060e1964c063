import { type ReactNode, useContext } from 'react';
import { LabelOverrides, shellLabels } from '../labels-context.js';
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
  // The shell shows it before the panel (and labels.tsx) loads: its own defaults only.
  const labels = { ...shellLabels, ...useContext(LabelOverrides) };
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
