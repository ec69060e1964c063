/**
 * A docs page shown in the panel (`sourceAction="preview"`): its text from the page endpoint,
 * rendered with the panel's own Markdown renderer (given as a prop, like the labels and the kit, so
 * this chunk imports nothing the launcher or the panel has), with Back and a link to the page.
 */
import { type ComponentType, useEffect, useRef, useState } from 'react';
import type { AssistantError } from '../chat/types.js';
import type { CoreLabels } from '../labels/types.js';
import { type PageText, pageWith, type SearchKit, type SearchOptions } from './core.js';
import { searchLabels } from './labels.js';

/** The page to show: its path for the page endpoint, its link, and a title until the text is in. */
export interface PreviewTarget {
  path: string;
  url: string;
  title: string;
}

export interface PagePreviewProps {
  target: PreviewTarget;
  options: SearchOptions;
  kit: SearchKit;
  labels: CoreLabels;
  Markdown: ComponentType<{ text: string; resolveHref?: (href: string) => string | null }>;
  resolveHref: (href: string) => string | null;
  onBack: () => void;
}

export default function PagePreview({
  target,
  options,
  kit,
  labels: given,
  Markdown,
  resolveHref,
  onBack,
}: PagePreviewProps) {
  const labels = searchLabels(given);
  const [page, setPage] = useState<PageText | null>(null);
  const [error, setError] = useState<AssistantError | null>(null);
  const back = useRef<HTMLButtonElement>(null);
  const latest = useRef(options);
  latest.current = options;

  useEffect(() => {
    const controller = new AbortController();
    setPage(null);
    setError(null);
    pageWith(kit, latest.current, target.path, controller.signal).then(
      (found) => {
        if (!controller.signal.aborted) setPage(found);
      },
      (cause: unknown) => {
        if (!controller.signal.aborted) setError(cause as AssistantError);
      },
    );
    return () => controller.abort();
  }, [kit, target.path]);

  // Where the reader's focus was (a result, a source) is gone: Back is where to go on from.
  useEffect(() => back.current?.focus(), []);

  const status = page ? 'ready' : error ? 'error' : 'loading';
  return (
    <section data-docs-assistant="page-preview" data-status={status} aria-label={target.title}>
      <div data-part="bar">
        <button ref={back} type="button" data-action="back" onClick={onBack}>
          {labels.previewBack}
        </button>
        <a href={target.url} data-action="open-page">
          {labels.previewOpen}
        </a>
      </div>
      {error ? (
        <div data-docs-assistant="error" data-error-kind={error.kind} role="alert">
          <p>{error.status === 404 ? labels.previewNotFound : error.message}</p>
        </div>
      ) : null}
      {page ? (
        <div data-part="page">
          <Markdown text={page.content} resolveHref={resolveHref} />
        </div>
      ) : error ? null : (
        <p role="status">{labels.previewLoading}</p>
      )}
    </section>
  );
}
