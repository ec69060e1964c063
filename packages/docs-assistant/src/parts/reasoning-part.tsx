import { memo, useId, useState } from 'react';
import { useLabels } from '../labels/index.js';
import type { ReasoningDetail } from '../protocol/index.js';
import { sameContext, sameReasoningPart } from './equality.js';
import { StreamingMarkdown } from './markdown.js';
import type { ReasoningPartProps } from './types.js';

type Segment = { kind: 'text'; text: string } | { kind: 'redacted' };

/** Consecutive text details read as one passage; each redacted detail is a marker of its own. */
function segmentsOf(reasoning: unknown, details: unknown): Segment[] {
  // Stored conversations from older clients may lack `details`; details that are not what the
  // protocol says are skipped, never rendered as they are.
  const list: ReasoningDetail[] = Array.isArray(details) ? details : [];
  if (list.length === 0)
    return typeof reasoning === 'string' && reasoning ? [{ kind: 'text', text: reasoning }] : [];
  const segments: Segment[] = [];
  for (const detail of list) {
    if (typeof detail !== 'object' || detail === null) continue;
    const last = segments[segments.length - 1];
    if (detail.type === 'redacted') segments.push({ kind: 'redacted' });
    else if (detail.type !== 'text' || typeof detail.text !== 'string') continue;
    else if (last?.kind === 'text') last.text += detail.text;
    else segments.push({ kind: 'text', text: detail.text });
  }
  return segments;
}

/**
 * The default reasoning renderer: a collapsible section, open while the reasoning streams and
 * closed once it is done, unless the reader toggled it (then the reader's choice stays).
 */
export const ReasoningPart = memo(
  function ReasoningPart({ part, isStreaming, resolveHref }: ReasoningPartProps) {
    const labels = useLabels();
    const contentId = useId();
    // null until the reader toggles; from then on their choice wins over the streaming default.
    const [readerOpen, setReaderOpen] = useState<boolean | null>(null);
    const open = readerOpen ?? isStreaming;
    const segments = segmentsOf(part.reasoning, part.details);
    const redacted = labels.redacted;

    return (
      <div
        data-reasoning=""
        data-state={open ? 'open' : 'closed'}
        data-streaming={isStreaming ? '' : undefined}
      >
        <button
          type="button"
          aria-expanded={open}
          aria-controls={contentId}
          onClick={() => setReaderOpen(!open)}
        >
          {isStreaming ? labels.reasoningStreaming : labels.reasoning}
        </button>
        <div id={contentId} hidden={!open}>
          {segments.map((segment, index) =>
            segment.kind === 'text' ? (
              <StreamingMarkdown
                // Segments only get appended, so the position is a stable key.
                // biome-ignore lint/suspicious/noArrayIndexKey: see above
                key={index}
                text={segment.text}
                isStreaming={isStreaming && index === segments.length - 1}
                resolveHref={resolveHref}
              />
            ) : (
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              <p key={index} data-redacted="">
                {redacted}
              </p>
            ),
          )}
        </div>
      </div>
    );
  },
  (prev, next) => sameReasoningPart(prev.part, next.part) && sameContext(prev, next),
);
ReasoningPart.displayName = 'ReasoningPart';
