import type { ContextItem } from '../context/types';
import { useLabels } from '../labels';
import { Icon } from './icons';

export interface ContextChipsProps {
  items: readonly ContextItem[];
  onRemove: (id: string) => void;
  className?: string;
}

/** Longest preview of a context value on its chip (in characters); the full value is its title. */
const CHIP_PREVIEW_LENGTH = 60;

/** The context items that go with the next question, each removable. */
export function ContextChips({ items, onRemove, className }: ContextChipsProps) {
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
            <button
              type="button"
              data-action="remove-context"
              aria-label={labels.removeContext(item.value)}
              title={labels.removeContext(item.value)}
              onClick={() => onRemove(item.id)}
            >
              <Icon name="close" />
            </button>
          </li>
        );
      })}
    </ul>
  );
}
