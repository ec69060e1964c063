/**
 * The panel's instant search, loaded on its own when search is available: what the reader types in
 * the question box is searched (debounced, see `useDocsSearch`), and the results show above an
 * "Ask AI: ‹query›" row, grouped by page, the query's words marked. The question box keeps focus;
 * ↑/↓ move through the rows (`aria-activedescendant`), Enter opens the chosen page or, on the Ask AI
 * row (or with no row chosen), sends the question as the box always does.
 */
import { type CSSProperties, type RefObject, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { Labels } from '../labels/types.js';
import { type SearchHit, type SearchKit, type UseDocsSearchOptions, useSearchState } from './core.js';
import { excerpt, highlight, queryWords } from './highlight.js';
import { searchLabels } from './labels.js';

export interface SearchResultsProps {
  /** The text of the question box. */
  query: string;
  options: UseDocsSearchOptions;
  /** The question box: it keeps focus and points at the chosen row. */
  inputRef: RefObject<HTMLTextAreaElement | null>;
  /** Offer the "Ask AI" row (the assistant is available). */
  assistant: boolean;
  onAsk: (question: string) => void;
  /**
   * The panel's link policy (the answers' own): a result's link resolved against the docs site, or
   * `null` for one it refuses (`javascript:`…), which is then not offered.
   */
  resolveHref: (href: string) => string | null;
  /** Opens a result in the panel instead of following its link (`sourceAction="preview"`). */
  onOpen?: (hit: SearchHit) => void;
  /**
   * From the panel, so this chunk imports nothing the launcher has: the labels in effect, the
   * assistant's checks and error mapping, the visually-hidden style.
   */
  labels: Labels;
  kit: SearchKit;
  hiddenStyle: CSSProperties;
  className?: string;
}

function Marked({ text, words }: { text: string; words: string[] }) {
  return (
    <>
      {highlight(text, words).map((segment, i) =>
        // Text nodes only: a result's text is never parsed as markup.
        segment.match ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: segments of a fixed text, in order
          <mark key={i}>{segment.text}</mark>
        ) : (
          segment.text
        ),
      )}
    </>
  );
}

export default function SearchResults({
  query,
  options,
  inputRef,
  assistant,
  onAsk,
  onOpen,
  resolveHref,
  labels: given,
  kit,
  hiddenStyle,
  className,
}: SearchResultsProps) {
  const labels = searchLabels(given);
  const state = useSearchState(options, kit);
  const { search, status, error } = state;
  // Only links the policy lets through, resolved: a result whose link it refuses is not offered.
  const groups = useMemo(
    () =>
      state.groups
        .map((group) => ({
          ...group,
          hits: group.hits.flatMap((hit) => {
            const url = resolveHref(hit.url);
            return url ? [{ ...hit, url }] : [];
          }),
        }))
        .filter((group) => group.hits.length > 0),
    [state.groups, resolveHref],
  );
  const [active, setActive] = useState(-1);
  const listId = useId();
  const optionId = (index: number) => `${listId}-${index}`;

  useEffect(() => search(query), [search, query]);
  const words = useMemo(() => queryWords(state.query), [state.query]);
  const hits = useMemo(() => groups.flatMap((group) => group.hits), [groups]);
  const question = query.trim();
  const rows = hits.length + (assistant && question ? 1 : 0);
  // A new list (or a new query) starts with no row chosen: Enter then asks, as the box always does.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on a new list
  useEffect(() => setActive(-1), [groups, question]);

  const links = useRef(new Map<number, HTMLAnchorElement>());
  const latest = useRef({ active, rows, hits, question });
  latest.current = { active, rows, hits, question };

  // The box's own keys, taken before the box's handler sees them (a native listener on the box runs
  // before React's, which listens at the root): ↑/↓ choose a row, Enter on a page row opens it.
  useEffect(() => {
    const input = inputRef.current;
    if (!input) return;
    const onKeyDown = (event: KeyboardEvent) => {
      const { active: current, rows: count, hits: shown, question: asked } = latest.current;
      if (!count || event.isComposing) return;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        // The rows and "none chosen" (-1) form one cycle: ↓ from the last row goes back to the box.
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive(((current + 1 + step + count + 1) % (count + 1)) - 1);
      } else if (event.key === 'Enter' && !event.shiftKey && current >= 0) {
        event.preventDefault();
        event.stopPropagation();
        if (current < shown.length) links.current.get(current)?.click();
        else onAsk(asked);
      }
    };
    input.addEventListener('keydown', onKeyDown);
    return () => input.removeEventListener('keydown', onKeyDown);
  }, [inputRef, onAsk]);

  // The box names the list it drives and the row chosen in it.
  const listShown = rows > 0;
  useEffect(() => {
    const input = inputRef.current;
    if (!input) return;
    const set = (name: string, value: string | null) =>
      value === null ? input.removeAttribute(name) : input.setAttribute(name, value);
    set('aria-controls', listShown ? listId : null);
    set('aria-activedescendant', listShown && active >= 0 ? optionId(active) : null);
    return () => {
      set('aria-controls', null);
      set('aria-activedescendant', null);
    };
  });

  // Keeps the chosen row in view as ↑/↓ move through a list taller than the panel.
  useEffect(() => {
    if (active >= 0) document.getElementById(optionId(active))?.scrollIntoView?.({ block: 'nearest' });
  });

  const said =
    status === 'ready'
      ? hits.length
        ? labels.searchResultCount(hits.length)
        : labels.searchNoResults(state.query.trim())
      : '';

  let index = 0;
  const row = (hit: SearchHit) => {
    const at = index++;
    return (
      <a
        key={`${hit.url}-${at}`}
        ref={(element) => {
          if (element) links.current.set(at, element);
          else links.current.delete(at);
        }}
        id={optionId(at)}
        role="option"
        aria-selected={active === at}
        tabIndex={-1}
        href={hit.url}
        data-docs-assistant="search-result"
        data-active={active === at ? '' : undefined}
        onMouseMove={() => setActive(at)}
        onClick={
          onOpen
            ? (event) => {
                event.preventDefault();
                onOpen(hit);
              }
            : undefined
        }
      >
        <span data-part="title">
          <Marked text={hit.heading ?? hit.pageTitle} words={words} />
        </span>
        {hit.content ? (
          <span data-part="excerpt">
            <Marked text={excerpt(hit.content, words)} words={words} />
          </span>
        ) : null}
      </a>
    );
  };

  return (
    <div data-docs-assistant="search" data-status={status} className={className}>
      {status === 'error' && error ? (
        <div data-docs-assistant="error" data-error-kind={error.kind} role="alert">
          <p>
            {labels.searchFailed} {error.message}
          </p>
        </div>
      ) : null}
      <p data-docs-assistant="search-status" role="status" style={hits.length ? hiddenStyle : undefined}>
        {said}
      </p>
      {listShown ? (
        <div id={listId} role="listbox" aria-label={labels.searchResultsLabel}>
          {groups.map((group) => (
            // A group of options inside a listbox: a fieldset is a form control group, not this.
            // biome-ignore lint/a11y/useSemanticElements: ARIA's listbox group, as its pattern has it
            <div key={group.path} role="group" aria-label={group.title} data-docs-assistant="search-group">
              <div aria-hidden="true" data-part="group-title">
                {group.title}
              </div>
              {group.hits.map(row)}
            </div>
          ))}
          {assistant && question ? (
            // biome-ignore lint/a11y/useKeyWithClickEvents: chosen with ↑/↓ and Enter from the question box
            <div
              id={optionId(hits.length)}
              role="option"
              aria-selected={active === hits.length}
              tabIndex={-1}
              data-action="ask-ai"
              data-active={active === hits.length ? '' : undefined}
              onMouseMove={() => setActive(hits.length)}
              onClick={() => onAsk(question)}
            >
              {labels.askAiAbout(question)}
            </div>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
