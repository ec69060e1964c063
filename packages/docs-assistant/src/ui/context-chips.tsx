import { memo, type RefObject, useRef } from 'react';
import type { ContextItem } from '../context/types.js';
import { useLabels } from '../labels/index.js';
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
  const listRef = useRef<HTMLUListElement>(null);
  // The removed chip's button goes away with it: focus moves on first, to the next chip, else the
  // previous one, else the question box, so a keyboard reader keeps their place.
  const remove = (id: string, button: HTMLButtonElement) => {
    const buttons = Array.from(
      listRef.current?.querySelectorAll<HTMLButtonElement>('[data-action="remove-context"]') ?? [],
    );
    const index = buttons.indexOf(button);
    const next = buttons[index + 1] ?? buttons[index - 1] ?? fallbackFocusRef?.current;
    next?.focus();
    onRemove(id);
  };
  if (items.length === 0) return null;
  return (
    <ul ref={listRef} data-docs-assistant="context-list">
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
            <button
              type="button"
              data-action="remove-context"
              aria-label={labels.removeContext(item.value)}
              title={labels.removeContext(item.value)}
              onClick={(event) => remove(item.id, event.currentTarget)}
            >
              <CloseIcon />
            </button>
          </li>
        );
      })}
    </ul>
  );
});
