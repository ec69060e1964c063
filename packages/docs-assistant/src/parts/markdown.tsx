import type { Element, ElementContent, Root } from 'hast';
import {
  type ComponentPropsWithoutRef,
  createContext,
  type HTMLAttributes,
  type JSX,
  memo,
  type ReactNode,
  startTransition,
  useContext,
  useDeferredValue,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { useLabels } from '../labels/index.js';
import { CodeBlock } from './code-block.js';
import { createIsExternal, isSafeHref, keepSafeHref } from './href.js';
import {
  createImagePolicy,
  type ImagePolicy,
  ImagePolicyContext,
  isDataRasterImage,
} from './image-policy.js';
import type { Components, ExtraProps } from './markdown-components.js';
import {
  limitMarkdown,
  MARKDOWN_MAX_CHARS,
  type MarkdownLimitReason,
  type MarkdownLimitState,
} from './markdown-limits.js';
import {
  arrivedTree,
  isParsing,
  type ParseMarkdown,
  pageParser,
  requestTree,
  subscribeToNothing,
  subscribeToTrees,
  treeArrived,
  useWorkerTree,
  workerAnswers,
} from './parse-off-thread.js';
import {
  type AnswerReferences,
  type BlockReferences,
  collectReferences,
  normalizeLabel,
  scanBlock,
} from './reference-definitions.js';
import { createElementsMemo, type ElementsMemo, markdownElements } from './render-markdown.js';
import { type MarkdownBlocks, updateMarkdownBlocks } from './split-markdown-blocks.js';
import { externalLinkProps, parseSuggestions, Suggestions } from './suggestions.js';
import { MarkdownTable } from './table.js';

/** The fence info string that turns a code block into follow-up links. */
export const SUGGESTIONS_LANGUAGE = 'suggestions';

interface LinkPolicy {
  resolveHref: (href: string) => string | null;
  isExternal: (href: string) => boolean;
  imageAllowed: ImagePolicy;
}

const LinkPolicyContext = createContext<LinkPolicy | null>(null);

/**
 * The parser the blocks below use on the page's thread, synchronously: the public renderers pass it
 * (`with-parser.tsx`). Without one (the widget), a block goes to the Markdown worker, finished or
 * not, and only where the worker cannot parse loads the page's parser (`pageParser`).
 */
export const MarkdownParserContext = createContext<ParseMarkdown | null>(null);

function useLinkPolicy(): LinkPolicy {
  const policy = useContext(LinkPolicyContext);
  if (!policy) throw new Error('docs-assistant: Markdown elements must be rendered inside <Markdown>.');
  return policy;
}

// Drops the hast node the renderer passes along (as react-markdown does) so it never lands on a DOM element.
type ElementProps<T extends keyof JSX.IntrinsicElements> = ComponentPropsWithoutRef<T> & ExtraProps;

// Set inside a link: an image there that may not load shows as text (a link in a link is invalid).
const InLinkContext = createContext(false);

function MarkdownLink({ node: _node, href, children, ...props }: ElementProps<'a'>) {
  const { resolveHref, isExternal } = useLinkPolicy();
  const resolved = href ? resolveHref(href) : null;
  // An unsafe or unresolvable link keeps its words and loses the link.
  if (!resolved) return <>{children}</>;
  return (
    <a {...props} href={resolved} {...(isExternal(resolved) ? externalLinkProps : undefined)}>
      <InLinkContext.Provider value={true}>{children}</InLinkContext.Provider>
    </a>
  );
}

/**
 * An image loads only where the image policy allows it (`allowedImageOrigins`); any other becomes a
 * link to it, named by its alt text and marked as an external image, so nothing is fetched until
 * the reader asks for it. Only `src`, `alt` and `title` are used: nothing else from the answer
 * reaches the element.
 */
function MarkdownImage({ src, alt, title }: ElementProps<'img'>) {
  const { resolveHref, imageAllowed } = useLinkPolicy();
  const inLink = useContext(InLinkContext);
  const labels = useLabels();
  const text = typeof alt === 'string' ? alt : '';
  const raw = typeof src === 'string' ? src.trim() : '';
  const resolved = isDataRasterImage(raw) ? raw : raw ? resolveHref(raw) : null;
  if (resolved && imageAllowed(resolved)) {
    return <img src={resolved} alt={text} title={title} loading="lazy" />;
  }
  // Not an http(s) URL (mailto, a fragment, a data: URL that is not allowed): only the words stay.
  const linkable = resolved !== null && /^https?:\/\//i.test(resolved);
  const label = labels.externalImage(text);
  if (!linkable) return text || null;
  if (inLink) return <span data-external-image="">{label}</span>;
  return (
    <a href={resolved} title={title} data-external-image="" {...externalLinkProps}>
      {label}
    </a>
  );
}

interface HastLike {
  type: string;
  value?: string;
  tagName?: string;
  properties?: Record<string, unknown>;
  children?: HastLike[];
}

function hastText(node: HastLike): string {
  if (node.type === 'text') return node.value ?? '';
  return (node.children ?? []).map(hastText).join('');
}

// The Markdown's HTML tree gives a fenced block's language as its code's one class,
// `['language-ts']` (`mdast-to-hast.ts`), and no class without one.
function languageOf(code: HastLike): string | undefined {
  const name = (code.properties?.className as unknown[] | undefined)?.[0];
  return typeof name === 'string' && name.startsWith('language-') ? name.slice(9) : undefined;
}

function MarkdownPre({ node, children }: ElementProps<'pre'>) {
  const { resolveHref, isExternal } = useLinkPolicy();
  const code = (node?.children as HastLike[] | undefined)?.find(
    (child) => child.type === 'element' && child.tagName === 'code',
  );
  if (!code) return <pre>{children}</pre>;
  const language = languageOf(code);
  // mdast keeps the final newline of a fence's content; the copied code should not have it.
  const text = hastText(code).replace(/\n$/, '');
  if (language === SUGGESTIONS_LANGUAGE) {
    return <Suggestions suggestions={parseSuggestions(text, resolveHref)} isExternal={isExternal} />;
  }
  return <CodeBlock code={text} language={language} />;
}

const defaultElements: Components = {
  a: MarkdownLink,
  img: MarkdownImage,
  pre: MarkdownPre,
  table: MarkdownTable,
};

// Every URL in the tree goes through here first: unsafe ones are removed, so even an element the
// host overrides never receives a `javascript:` href. An image's `data:` URL of a raster image
// stays for the image policy to judge.
const urlTransform = (url: string, key: string, node: Element): string | null =>
  isSafeHref(url) || (key === 'src' && node.tagName === 'img' && isDataRasterImage(url.trim())) ? url : null;

/**
 * The HTML tree has no footnote section (an answer shows its footnotes once, after its last block,
 * not after each block that calls one); footnote calls are numbered for the whole answer and link
 * to ids unique to this answer (`prefix`), not to the parser's per-block `user-content-fn-…`.
 * `parsed` is the text the block was parsed from: a call's position in it gives its label.
 */
function footnoteCalls(parsed: string, prefix: string, notes: string) {
  const numbers = new Map(
    notes ? notes.split('\n').map((entry) => entry.split(' ') as [string, string]) : [],
  );
  const rewrite = (nodes: ElementContent[]) => {
    for (const node of nodes) {
      if (node.type !== 'element') continue;
      if (node.tagName === 'a' && node.properties.dataFootnoteRef) {
        const start = node.position?.start.offset ?? 0;
        const end = node.position?.end.offset ?? 0;
        // `[^label]`
        const number = numbers.get(normalizeLabel(parsed.slice(start + 2, end - 1)));
        node.properties = number ? { href: `#${prefix}fn-${number}`, dataFootnoteRef: '' } : {};
        if (number) node.children = [{ type: 'text', value: number }];
      } else {
        rewrite(node.children);
      }
    }
  };
  return (tree: Root) => {
    if (numbers.size > 0) rewrite(tree.children as ElementContent[]);
  };
}

interface MarkdownBlockProps {
  source: string;
  /** Definitions from elsewhere in the answer that the block uses (`reference-definitions.ts`). */
  extra: string;
  /** The footnotes the block calls, `KEY number` per line. */
  notes: string;
  /** Prefix of this answer's footnote ids. */
  prefix: string;
  components: Components;
  /** The block will not change (not the one being written): its elements are kept by content. */
  finished?: boolean;
  /** The answer streams, or streamed, in this page: the Markdown worker parses the block if it can. */
  offThread?: boolean;
}

/** Most characters of finished blocks kept, per set of element overrides (see `finishedBlock`). */
const FINISHED_BLOCKS_CHARS = 200_000;
const finishedBlocks = new WeakMap<Components, { blocks: Map<string, ReactNode>; chars: number }>();

/**
 * The elements of a finished block, made once per content. React's memo keeps a block from
 * re-rendering only in the fiber that rendered it; a background render that a newer chunk
 * interrupts and starts over, or a message that mounts again (a host's own message list, a
 * conversation shown again), would parse the same blocks again. Least recently used blocks go
 * first past `FINISHED_BLOCKS_CHARS` (twice the Markdown one text may hold). Without `elements`,
 * only looks the block up.
 */
function finishedBlock(components: Components, key: string, elements?: ReactNode): ReactNode | undefined {
  const cache = finishedBlocks.get(components) ?? { blocks: new Map(), chars: 0 };
  finishedBlocks.set(components, cache);
  const { blocks } = cache;
  const kept = blocks.get(key) ?? elements;
  if (kept === undefined) return undefined;
  // Taken out and put back: a Map iterates in insertion order, so the first key is the least
  // recently used.
  if (!blocks.delete(key)) cache.chars += key.length;
  blocks.set(key, kept);
  for (const old of blocks.keys()) {
    if (cache.chars <= FINISHED_BLOCKS_CHARS) break;
    blocks.delete(old);
    cache.chars -= old.length;
  }
  return kept;
}

const blockText = ({ source, extra }: { source: string; extra: string }) =>
  extra ? `${source}\n\n${extra}` : source;

/** Most earlier texts of a block remembered while their trees are on their way. */
const EARLIER_TEXTS = 8;

/**
 * The newest of a block's earlier texts (`asked`, oldest first, the current one last) whose tree
 * has arrived. While an answer streams, the block being written renders with each new piece of
 * text, before the worker has parsed it; it shows the newest text parsed by then in that same
 * render, rather than waiting for a render of its own when that tree arrives (two renders a frame,
 * and a block one text behind whenever the stream's render came first).
 */
function newestArrived(asked: readonly string[]): { text: string; tree: Root } | undefined {
  for (let index = asked.length - 2; index >= 0; index--) {
    const tree = arrivedTree(asked[index]!);
    // `null`: a text the worker could not parse; the block shows what it showed until a newer one.
    if (tree !== undefined) return tree ? { text: asked[index]!, tree } : undefined;
  }
  return undefined;
}

const isServer = () => false;
const returnNull = () => null;

/**
 * A block being written sends a newer text to the worker at most this often (ms): every other frame
 * at 60 Hz. A stream faster than the screen then costs a round trip to the worker (a message each
 * way, a parse, a render of the block) every other frame instead of every frame; the rest of the
 * answer is not held back (a finished block's text goes at once), and a stream that pauses shows
 * its last text a frame after the interval is over (`PAUSED_AFTER_MS`).
 */
const WRITING_INTERVAL_MS = 32;

/**
 * When no newer text has come a frame after the interval is over, the stream has paused, and the
 * block renders on its own to send its newest text (49 ms: the interval and a frame at 60 Hz). A
 * stream that goes on renders the block with its next frame first: waking at the end of the
 * interval itself cost a render and a message to the worker of their own, most often a few
 * milliseconds before the frame that would have sent the same text (`bench/analysis.md`).
 */
const PAUSED_AFTER_MS = 49;

/**
 * Renders again once `deadline` (`performance.now()`) has passed; `null` waits for nothing. It is
 * a state of its own that changes: in the render it causes, every other hook may return what it
 * returned before, and React drops a render that changed no state (with it, the newer text's
 * request to the worker; a stream that paused would never show its last text).
 */
function useWakeAt(deadline: number | null): void {
  const [woken, wake] = useState(0);
  useEffect(() => {
    if (deadline === null) return;
    // A timer that fires a little early wakes a render that is still early: it sets another.
    const timer = setTimeout(() => wake(woken + 1), deadline - performance.now());
    return () => clearTimeout(timer);
  }, [deadline, woken]);
}

/**
 * `useWorkerTree` for a block, with one of its texts at a time in the worker while it is being
 * written: a newer text waits until the one sent is back (the block renders when it arrives, and
 * shows the newest tree it has), and until `WRITING_INTERVAL_MS` have passed since it went, then
 * goes. A worker that falls behind a fast stream skips texts nobody would see instead of parsing
 * each one: it parses as often as it keeps up, not once a frame, and its work competes less with
 * the page's for the machine's cores. A finished block's text always goes at once.
 */
function useOneTextInWorker(text: string | null, writing: boolean): Root | null | undefined {
  const inWorker = useRef<string | null>(null);
  // Set with the first text sent, before any newer one can wait.
  const sentAt = useRef(0);
  const sent = inWorker.current;
  const now = performance.now();
  const newer = text !== null && writing && sent !== null && sent !== text;
  // Only while the worker parses: a block parsed on the page shows each text as it renders.
  const early = newer && workerAnswers() && now - sentAt.current < WRITING_INTERVAL_MS;
  const waitFor = newer && (early || isParsing(sent)) ? sent : null;
  if (waitFor === null) {
    if (text !== sent) sentAt.current = now;
    inWorker.current = text;
  }
  // Whether it still waits, as state of its own: the render when the text sent arrives must differ
  // in some state from the one before, or React drops it (and its subscription to the new text)
  // as a render that changed nothing.
  useSyncExternalStore(
    waitFor === null ? subscribeToNothing : subscribeToTrees,
    () => waitFor !== null && isParsing(waitFor),
    isServer,
  );
  // A stream that pauses before the interval is over: the newest text goes a frame after it is.
  useWakeAt(early ? sentAt.current + PAUSED_AFTER_MS : null);
  const tree = useWorkerTree(waitFor ?? text);
  return waitFor === null ? tree : undefined;
}

/**
 * One top-level block; memoised on its text (and the definitions it uses) so finished blocks never
 * re-parse. For an answer that streams in the page, the Markdown worker parses it, to the end
 * (`parse-off-thread.ts`), and the block shows what it showed before until the tree arrives; a
 * finished answer that mounts, and any block where the worker cannot run, is parsed here.
 */
const MarkdownBlock = memo(
  function MarkdownBlock({
    source,
    extra,
    notes,
    prefix,
    components,
    finished,
    offThread,
  }: MarkdownBlockProps) {
    const parsed = blockText({ source, extra });
    // The id prefix only shows in footnote calls.
    const key = notes ? `${prefix}\n${notes}\n${parsed}` : parsed;
    const kept = finished ? finishedBlock(components, key) : undefined;
    const given = useContext(MarkdownParserContext);
    const tree = useOneTextInWorker((offThread || !given) && kept === undefined ? parsed : null, !finished);
    // Without a parser given, the page's is loaded where the worker cannot parse: rendered again
    // once it is there.
    const loaded = useSyncExternalStore(
      given ? subscribeToNothing : subscribeToTrees,
      () => (!given && kept === undefined && tree === null ? pageParser() : null),
      returnNull,
    );
    const parse = given ?? loaded;
    const shown = useRef<ReactNode>(null);
    // Texts of this block sent to the worker whose trees have not been shown, oldest first.
    const asked = useRef<string[]>([]);
    // The elements of the tree shown before: what did not change keeps them (`markdownElements`).
    const memo = useRef<ElementsMemo | null>(null);
    if (kept !== undefined) {
      shown.current = kept;
      return kept;
    }
    let from: { text: string; tree: Root | null } = { text: parsed, tree: tree ?? null };
    if (tree === undefined) {
      // On its way from the worker: the newest earlier text parsed by now, else what was shown.
      const texts = asked.current;
      if (texts.at(-1) !== parsed) texts.push(parsed);
      if (texts.length > EARLIER_TEXTS) texts.splice(0, texts.length - EARLIER_TEXTS);
      const earlier = newestArrived(texts);
      if (!earlier) return shown.current;
      // Texts older than the one shown are never shown.
      texts.splice(0, texts.indexOf(earlier.text) + 1);
      from = earlier;
    } else {
      asked.current.length = 0;
    }
    const options = { transform: footnoteCalls(from.text, prefix, notes), components, urlTransform };
    // The worker's tree is kept by text for every block with that text; footnote calls are
    // rewritten in place, for this answer's ids: on a copy.
    memo.current ??= createElementsMemo();
    if (!from.tree && !parse) return shown.current;
    const elements = markdownElements(
      from.tree ? (notes ? structuredClone(from.tree) : from.tree) : parse!(parsed),
      options,
      memo.current,
    );
    shown.current = elements;
    return finished && from.text === parsed ? finishedBlock(components, key, elements) : elements;
  },
  (prev, next) =>
    prev.source === next.source &&
    prev.extra === next.extra &&
    prev.notes === next.notes &&
    prev.prefix === next.prefix &&
    // Not `offThread`: it only ever turns on, and a block showing its text needs no new render
    // for it; a block waiting for the worker renders when its tree arrives: with the view's next
    // render if that comes first (the stream's next update), else on its own.
    prev.components === next.components &&
    !(next.offThread && treeArrived(blockText(next))),
);
MarkdownBlock.displayName = 'MarkdownBlock';

export interface MarkdownProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  /** The Markdown (GitHub flavoured). Raw HTML in it shows as text; it never becomes elements. */
  text: string;
  /**
   * Resolves links and image sources; `null` renders a link as plain text.
   * @default keeps `http(s)`, `mailto` and relative URLs as written
   */
  resolveHref?: (href: string) => string | null;
  /**
   * Element overrides, as react-markdown's `components` (`{ table: MyTable }`), merged over the defaults (links,
   * images, code blocks). Keep the object stable (module level or `useMemo`): a new one re-renders
   * every block.
   */
  components?: Components;
  /**
   * Origins images may load from (`https://cdn.example.com`), plus `'data:'` for `data:` raster
   * images; an image from elsewhere shows as a link. Inside `MessageParts` the conversation's policy
   * applies instead.
   * @default the origin of `resolveHref('/')` (else the page's) and `'data:'`
   */
  allowedImageOrigins?: readonly string[];
  children?: ReactNode;
}

/**
 * Markdown for answers. The text is split into top-level blocks (`splitMarkdownBlocks`) and each
 * block is memoised, so while an answer streams only its last block re-renders. Reference links
 * and footnotes work across blocks: a block re-renders when a definition it uses arrives, and the
 * footnotes are listed once, after the last block, under ids unique to this element.
 */
export function Markdown(props: MarkdownProps) {
  return <MarkdownView {...props} tailIncomplete={false} offThread={false} />;
}

interface Scans {
  blocks: string[];
  scans: BlockReferences[];
}

/** The text's blocks and the references in them, each worked out again only from what changed. */
function useMarkdownBlocks(text: string, tailIncomplete: boolean) {
  // Past the depth and size limits the text is not parsed (markdown-limits.ts); the previous
  // state, so a streaming answer is only scanned from its last line.
  const limitState = useRef<MarkdownLimitState | undefined>(undefined);
  const limited = useMemo(() => {
    limitState.current = limitMarkdown(text, limitState.current);
    return limitState.current;
  }, [text]);
  // The previous split, so a streaming answer only re-splits its tail (20k-token answers).
  const split = useRef<MarkdownBlocks | undefined>(undefined);
  const blocks = useMemo(() => {
    split.current = updateMarkdownBlocks(split.current, limited.markdown);
    return split.current.blocks;
  }, [limited.markdown]);
  // A link definition on a last line still being written may have half its URL: not used yet.
  const lastLineIncomplete = tailIncomplete && !split.current?.text.endsWith('\n');
  // The previous scans, so only new or changed blocks are scanned again.
  const scanned = useRef<Scans | undefined>(undefined);
  const references = useMemo(() => {
    const previous = scanned.current;
    const last = blocks.length - 1;
    // A block that was last may have been scanned without its last line: scanned again.
    const scans = blocks.map((block, index) =>
      previous && index < previous.blocks.length - 1 && previous.blocks[index] === block
        ? previous.scans[index]!
        : scanBlock(block, lastLineIncomplete && index === last),
    );
    scanned.current = { blocks, scans };
    return collectReferences(scans);
  }, [blocks, lastLineIncomplete]);
  return { limited, blocks, references };
}

/** The view's link and image policy: the given origins, else the conversation's policy, else the default. */
function useViewLinkPolicy(
  resolveHref: (href: string) => string | null,
  allowedImageOrigins?: readonly string[],
) {
  const conversationImages = useContext(ImagePolicyContext);
  // Keyed on the origins' text: hosts often pass the array inline.
  const origins = allowedImageOrigins?.join('\n');
  const policy = useMemo<LinkPolicy>(
    () => ({
      resolveHref,
      isExternal: createIsExternal(resolveHref),
      imageAllowed:
        origins === undefined && conversationImages
          ? conversationImages
          : createImagePolicy(
              origins === undefined ? undefined : origins ? origins.split('\n') : [],
              resolveHref,
            ),
    }),
    [resolveHref, origins, conversationImages],
  );
  return policy;
}

/** Whether a block or footnote still waits for its tree (the view's `data-pending`). */
function useWaitingForTrees(
  blocks: string[],
  references: AnswerReferences,
  tailIncomplete: boolean,
  offThread: boolean,
) {
  // Blocks whose text the worker is parsing show an earlier text: a finished answer is pending
  // until they have theirs. (While the text is still written it is pending anyway: the message says
  // it streams, and the view need not render again for every tree that arrives.) Without a parser
  // given, a finished answer that mounts waits for the worker's trees, or the page's parser, from
  // its first render: its texts are asked for here, before its blocks render.
  // Once every block had its tree, they keep their elements: the trees may then leave the worker's
  // cache (asking for them again, for each view on every tree that arrives, would have the views of
  // a long conversation evict each other's trees without end).
  const given = useContext(MarkdownParserContext);
  const settled = useRef<AnswerReferences | null>(null);
  const waiting = useSyncExternalStore(
    subscribeToTrees,
    () => {
      if (tailIncomplete || (given && !offThread) || settled.current === references) return false;
      const pending = [
        ...blocks.map((source, index) => blockText({ source, extra: references.blocks[index]!.extra })),
        ...references.footnotes.map((note, index) =>
          blockText({ source: note.content, extra: references.footnoteExtras[index]!.extra }),
        ),
      ].some((text) => {
        if (given) return isParsing(text);
        const tree = requestTree(text);
        return tree === undefined || (tree === null && !pageParser());
      });
      if (!pending) settled.current = references;
      return pending;
    },
    isServer,
  );
  return waiting;
}

// Memoised: while an answer streams, the chat client's update renders StreamingMarkdown with the
// text on screen unchanged (the new text is rendered in the background), and the blocks need not
// be gone through again for it.
const MarkdownView = memo(function MarkdownView({
  text,
  resolveHref = keepSafeHref,
  components,
  allowedImageOrigins,
  children,
  tailIncomplete,
  offThread,
  ...props
}: MarkdownProps & { tailIncomplete: boolean; offThread: boolean }) {
  const { limited, blocks, references } = useMarkdownBlocks(text, tailIncomplete);
  // Footnote ids are unique per answer: two answers that both have a `[^1]` must not share an id.
  const prefix = `user-content-${useId().replace(/[^\w-]/g, '')}-`;
  const policy = useViewLinkPolicy(resolveHref, allowedImageOrigins);
  const elements = useMemo(
    () => (components ? { ...defaultElements, ...components } : defaultElements),
    [components],
  );
  const waiting = useWaitingForTrees(blocks, references, tailIncomplete, offThread);
  return (
    <LinkPolicyContext.Provider value={policy}>
      <div
        data-markdown=""
        {...props}
        data-pending={(props as { 'data-pending'?: string })['data-pending'] ?? (waiting ? '' : undefined)}
      >
        {blocks.map((block, index) => (
          <MarkdownBlock
            // Blocks only ever get appended while streaming, so the position is a stable key.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            key={index}
            source={block}
            {...references.blocks[index]!}
            prefix={prefix}
            components={elements}
            finished={!tailIncomplete || index < blocks.length - 1}
            offThread={offThread}
          />
        ))}
        {limited.reason ? <PlainRest reason={limited.reason} text={limited.rest} /> : null}
        {references.footnotes.length > 0 ? (
          <section data-footnotes="">
            <ol>
              {references.footnotes.map((note, index) => (
                <li key={note.key} id={`${prefix}fn-${note.number}`}>
                  <MarkdownBlock
                    source={note.content}
                    {...references.footnoteExtras[index]!}
                    prefix={prefix}
                    components={elements}
                    finished={!tailIncomplete}
                    offThread={offThread}
                  />
                </li>
              ))}
            </ol>
          </section>
        ) : null}
        {children}
      </div>
    </LinkPolicyContext.Provider>
  );
});

// Characters per element of the plain-text rest (see PlainRest).
const REST_CHUNK_CHARS = 8_000;

/** Where each chunk of `text` ends: the first line break `REST_CHUNK_CHARS` or more after the last. */
function restChunks(text: string): string[] {
  const chunks: string[] = [];
  let start = 0;
  while (start < text.length) {
    const newline = text.indexOf('\n', start + REST_CHUNK_CHARS);
    // A text without line breaks is cut anyway, or one element would hold all of it.
    const end =
      newline >= 0 && newline < start + 4 * REST_CHUNK_CHARS
        ? newline + 1
        : Math.min(text.length, start + 4 * REST_CHUNK_CHARS);
    chunks.push(text.slice(start, end));
    start = end;
  }
  return chunks;
}

const chunkStyle = {
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
  margin: 0,
  // Off-screen chunks are not laid out: a megabyte of text laid out at once held the main thread
  // for most of a second, and again on every streamed update.
  contentVisibility: 'auto',
  containIntrinsicSize: 'auto 40em',
} as const;

/** One chunk of the plain-text rest; chunks are cut at stable places, so finished ones never re-render. */
const RestChunk = memo(function RestChunk({ text }: { text: string }) {
  return <div style={chunkStyle}>{text}</div>;
});

/** The text past the limits, as the answer wrote it, after a note saying why it is not formatted. */
function PlainRest({ reason, text }: { reason: MarkdownLimitReason; text: string }) {
  const labels = useLabels();
  return (
    <>
      <p data-markdown-limit={reason}>{labels.markdownLimit(reason)}</p>
      <div data-markdown-rest="">
        {restChunks(text).map((chunk, index) => (
          // Chunks only get appended, so the position is a stable key.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <RestChunk key={index} text={chunk} />
        ))}
      </div>
    </>
  );
}

/** A finished text longer than this mounts in the background (see StreamingMarkdown). */
const RENDER_AT_ONCE_CHARS = 16_000;
const isClient = () => true;

/** The end of the line `at` falls in (the whole text's length past its last line break). */
function lineEndAfter(text: string, at: number): number {
  if (at >= text.length) return text.length;
  const newline = text.indexOf('\n', at);
  return newline < 0 ? text.length : newline + 1;
}

/**
 * `Markdown` for text that may still be streaming. Parsing is the expensive step, so it never
 * happens in the chat client's update (a synchronous render): the text is a deferred value,
 * rendered in the background one block at a time with pauses for input and frames, skipping
 * intermediate texts when rendering falls behind the stream. Text that mounts while streaming
 * starts empty, so even a first batch holding much of the answer is parsed that way. At most
 * `RENDER_AT_ONCE_CHARS` more are rendered per commit, for a stream that arrives faster than it
 * renders and for a long text that mounts finished in the browser (a restored conversation):
 * parsing and laying out 100 kB in one commit held the main thread for over a second. A short
 * finished text, and any text rendered on the server or hydrated, renders at once. When the stream ends, the deferred text catches up the same way,
 * without one last synchronous parse.
 *
 * While the text on screen is behind the text received, the element carries `data-pending`: an
 * answer is wholly on screen once its message has lost `data-streaming` and holds no
 * `[data-pending]`.
 */
export function StreamingMarkdown({ text, isStreaming, ...props }: MarkdownProps & { isStreaming: boolean }) {
  // False on the server and while hydrating (the server's HTML holds the whole text).
  const clientRender = useSyncExternalStore(subscribeToNothing, isClient, isServer);
  const value = typeof text === 'string' ? text : '';
  // How much of the text may be rendered so far; Infinity once all of it may.
  const [revealed, setRevealed] = useState(() =>
    clientRender && (isStreaming || value.length > RENDER_AT_ONCE_CHARS) ? RENDER_AT_ONCE_CHARS : Infinity,
  );
  const target = revealed === Infinity ? value : value.slice(0, lineEndAfter(value, revealed));
  // Once the Markdown worker answers, rendering the new text costs the client's update little: it
  // is shown at once, not in a second render in the background. Once shown that way, the text
  // stays at once to its end (a deferred value may lag, and would show an earlier text).
  const direct = useRef(false);
  if (clientRender && isStreaming && workerAnswers()) direct.current = true;
  // Shown at once, the text is not deferred at all: a deferred value that follows it would still
  // render this component again in the background after every update, for nothing.
  const deferred = useDeferredValue(
    direct.current ? '' : target,
    isStreaming || revealed !== Infinity ? '' : target,
  );
  const shown = direct.current ? target : deferred;
  useEffect(() => {
    if (revealed === Infinity || shown !== target) return;
    // What may be rendered is on screen: the next part, in the background again. Past the
    // Markdown limit the rest is plain text, cheap to show at once.
    if (target.length >= MARKDOWN_MAX_CHARS || (!isStreaming && target.length >= value.length)) {
      startTransition(() => setRevealed(Infinity));
    } else if (target.length + RENDER_AT_ONCE_CHARS / 2 > revealed) {
      startTransition(() => setRevealed(target.length + RENDER_AT_ONCE_CHARS));
    }
  }, [revealed, shown, target, value.length, isStreaming]);
  const pending = shown !== text;
  // Once streamed here, the answer's blocks come from the worker to the end: the last ones too,
  // when it finishes (a parse on the page would run the parser's code cold, for one block).
  const streamed = useRef(false);
  if (isStreaming || pending) streamed.current = true;
  return (
    <MarkdownView
      text={shown}
      data-pending={pending ? '' : undefined}
      tailIncomplete={isStreaming || pending}
      offThread={clientRender && streamed.current}
      {...props}
    />
  );
}
