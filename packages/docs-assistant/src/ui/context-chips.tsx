import { memo, type RefObject } from 'react';
import type { ContextItem } from '../context/types.js';
import { useLabels } from '../labels/index.js';
import type { RemoveButtonProps } from './lazy-views.js';
import { CloseIcon } from './shell-frame.js';

export interface ContextChipsProps {
  items: readonly ContextItem[];
  onRemove: (id: string) => void;
  /** Takes focus when the last chip is removed (the question box). */
  fallbackFocusRef?: RefObject<HTMLElement | null>;
  className?: string;
}

/** Longest preview of a context value on its chip (in characters); the full value is its title. */
const CHIP_PREVIEW_LENGTH = 60;

/** The context items that go with the next question, each removable (memoised: see `Composer`). */
export const ContextChips = memo(function ContextChips(props: ContextChipsProps) {
  const { items, onRemove, fallbackFocusRef, className } = props;
  const labels = useLabels();
  if (items.length === 0) return null;
  return (
    <ul data-docs-assistant="context-list">
      {items.map((item) => {
        const oneLine = item.value.replace(/\s+/g, ' ').trim();
        const preview =
          oneLine.length > CHIP_PREVIEW_LENGTH ? `${oneLine.slice(0, CHIP_PREVIEW_LENGTH)}…` : oneLine;
        return (
          <li
            key={item.id}
            data-docs-assistant="context"
            data-context-type={item.type}
            data-truncated={item.truncated ? '' : undefined}
            className={className}
          >
            <span data-docs-assistant="context-value" title={item.value}>
              {item.type === 'code' ? <code>{preview}</code> : preview}
            </span>
            {item.truncated ? (
              <span data-docs-assistant="context-truncated">({labels.contextTruncated})</span>
            ) : null}
            <RemoveButton
              action="remove-context"
              label={labels.removeContext(item.value)}
              onRemove={() => onRemove(item.id)}
              fallbackFocusRef={fallbackFocusRef}
            />
          </li>
        );
      })}
    </ul>
  );
});

/**
 * A chip's remove button (a context chip's; the attachment tray's, which the panel hands it), the
 * shell's close icon. Its chip goes away with it: focus moves on first, to the next chip's, else the
 * previous one's, else `fallbackFocusRef` (the question box), so a keyboard reader keeps their place.
 */
export function RemoveButton({ action, label, onRemove, fallbackFocusRef }: RemoveButtonProps) {
  const remove = (button: HTMLButtonElement) => {
    const buttons = Array.from(
      button.closest('ul')?.querySelectorAll<HTMLButtonElement>(`[data-action="${action}"]`) ?? [],
    );
    const index = buttons.indexOf(button);
    (buttons[index + 1] ?? buttons[index - 1] ?? fallbackFocusRef?.current)?.focus();
    onRemove();
  };
  return (
    <button
      type="button"
      data-action={action}
      aria-label={label}
      title={label}
      onClick={(event) => remove(event.currentTarget)}
    >
      <CloseIcon />
    </button>
  );
}
