/**
 * The panel's instant search, loaded on its own when search is available: what the reader types in
 * the question box is searched (debounced, see `useDocsSearch`), and the results show above an
 * "Ask AI: ‹query›" row, grouped by page, the query's words marked. The question box keeps focus;
 * ↑/↓ move through the rows (`aria-activedescendant`), Enter opens the chosen page or, on the Ask AI
 * row (or with no row chosen), sends the question as the box always does.
 */
import { type CSSProperties, type RefObject, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { CoreLabels } from '../labels/types.js';
import {
  type SearchGroup,
  type SearchHit,
  type SearchKit,
  type UseDocsSearchOptions,
  useSearchState,
} from './core.js';
import { excerpt, highlight, queryWords } from './highlight.js';
import { type SearchLabels, searchLabels } from './labels.js';

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
  labels: CoreLabels;
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

/** The groups with only the links the policy lets through, resolved (a group left empty goes). */
function useAllowedGroups(groups: SearchGroup[], resolveHref: (href: string) => string | null) {
  return useMemo(
    () =>
      groups
        .map((group) => ({
          ...group,
          hits: group.hits.flatMap((hit) => {
            const url = resolveHref(hit.url);
            return url ? [{ ...hit, url }] : [];
          }),
        }))
        .filter((group) => group.hits.length > 0),
    [groups, resolveHref],
  );
}

interface RowState {
  active: number;
  rows: number;
  hits: SearchHit[];
  question: string;
}

/** ↑/↓ and Enter in the question box for the rows: returns the rows' links, which Enter clicks. */
function useRowKeys(
  inputRef: RefObject<HTMLTextAreaElement | null>,
  onAsk: (question: string) => void,
  setActive: (active: number) => void,
  state: RowState,
) {
  const links = useRef(new Map<number, HTMLAnchorElement>());
  const latest = useRef(state);
  latest.current = state;

  // The box's own keys, taken before the box's handler sees them (a native listener on the box runs
  // before React's, which listens at the root): ↑/↓ choose a row, Enter on a page row opens it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `setActive` is a state setter
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
  return links;
}

/** The box names the list it drives (`listId`, when shown) and the row chosen in it, kept in view. */
function useChosenRow(
  inputRef: RefObject<HTMLTextAreaElement | null>,
  listId: string,
  listShown: boolean,
  chosenId: string | null,
) {
  useEffect(() => {
    const input = inputRef.current;
    if (!input) return;
    const set = (name: string, value: string | null) =>
      value === null ? input.removeAttribute(name) : input.setAttribute(name, value);
    set('aria-controls', listShown ? listId : null);
    set('aria-activedescendant', listShown ? chosenId : null);
    return () => {
      set('aria-controls', null);
      set('aria-activedescendant', null);
    };
  });

  // Keeps the chosen row in view as ↑/↓ move through a list taller than the panel.
  useEffect(() => {
    if (chosenId !== null) document.getElementById(chosenId)?.scrollIntoView?.({ block: 'nearest' });
  });
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
  const groups = useAllowedGroups(state.groups, resolveHref);
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

  const links = useRowKeys(inputRef, onAsk, setActive, { active, rows, hits, question });

  const listShown = rows > 0;
  useChosenRow(inputRef, listId, listShown, active >= 0 ? optionId(active) : null);

  const said =
    status === 'ready'
      ? hits.length
        ? labels.searchResultCount(hits.length)
        : labels.searchNoResults(state.query.trim())
      : '';

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
        <ResultList
          listId={listId}
          labels={labels}
          groups={groups}
          hitCount={hits.length}
          ask={assistant && question ? question : ''}
          active={active}
          setActive={setActive}
          row={{ words, links, onOpen }}
          onAsk={onAsk}
        />
      ) : null}
    </div>
  );
}

interface ResultListProps {
  listId: string;
  labels: SearchLabels;
  groups: SearchGroup[];
  hitCount: number;
  /** The question the "Ask AI" row sends; empty without that row. */
  ask: string;
  active: number;
  setActive: (active: number) => void;
  /** What every result row is handed. */
  row: RowShared;
  onAsk: (question: string) => void;
}

/** The listbox: the results grouped by page, then the "Ask AI" row. */
function ResultList({
  listId,
  labels,
  groups,
  hitCount,
  ask,
  active,
  setActive,
  row,
  onAsk,
}: ResultListProps) {
  let index = 0;
  return (
    <div id={listId} role="listbox" aria-label={labels.searchResultsLabel}>
      {groups.map((group) => (
        // A group of options inside a listbox: a fieldset is a form control group, not this.
        // biome-ignore lint/a11y/useSemanticElements: ARIA's listbox group, as its pattern has it
        <div key={group.path} role="group" aria-label={group.title} data-docs-assistant="search-group">
          <div aria-hidden="true" data-part="group-title">
            {group.title}
          </div>
          {group.hits.map((hit) => {
            const at = index++;
            return (
              <ResultRow
                key={`${hit.url}-${at}`}
                hit={hit}
                id={`${listId}-${at}`}
                active={active === at}
                onChoose={() => setActive(at)}
                at={at}
                {...row}
              />
            );
          })}
        </div>
      ))}
      {ask ? (
        // biome-ignore lint/a11y/useKeyWithClickEvents: chosen with ↑/↓ and Enter from the question box
        <div
          id={`${listId}-${hitCount}`}
          role="option"
          aria-selected={active === hitCount}
          tabIndex={-1}
          data-action="ask-ai"
          data-active={active === hitCount ? '' : undefined}
          onMouseMove={() => setActive(hitCount)}
          onClick={() => onAsk(ask)}
        >
          {labels.askAiAbout(ask)}
        </div>
      ) : null}
    </div>
  );
}

/** What every row is handed: the query's words to mark, the rows' links, and how a page opens. */
interface RowShared {
  words: string[];
  links: RefObject<Map<number, HTMLAnchorElement>>;
  onOpen?: (hit: SearchHit) => void;
}

interface ResultRowProps extends RowShared {
  hit: SearchHit;
  /** Its place among the rows (the key of its link in `links`). */
  at: number;
  id: string;
  active: boolean;
  onChoose: () => void;
}

/** One result: a link to its page (or opening it in the panel), its title and excerpt marked. */
function ResultRow({ hit, at, id, active, onChoose, words, links, onOpen }: ResultRowProps) {
  return (
    <a
      ref={(element) => {
        if (element) links.current.set(at, element);
        else links.current.delete(at);
      }}
      id={id}
      role="option"
      aria-selected={active}
      tabIndex={-1}
      href={hit.url}
      data-docs-assistant="search-result"
      data-active={active ? '' : undefined}
      onMouseMove={onChoose}
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
}
