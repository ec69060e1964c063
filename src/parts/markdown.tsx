import {
  type ComponentPropsWithoutRef,
  createContext,
  type HTMLAttributes,
  type JSX,
  memo,
  type ReactNode,
  useContext,
  useDeferredValue,
  useMemo,
  useRef,
} from 'react';
import ReactMarkdown, { type Components, type ExtraProps } from 'react-markdown';
import { CodeBlock } from './code-block';
import { createIsExternal, isSafeHref, keepSafeHref } from './href';
import { remarkGfmSyntax } from './remark-gfm-syntax';
import { type MarkdownBlocks, updateMarkdownBlocks } from './split-markdown-blocks';
import { externalLinkProps, parseSuggestions, Suggestions } from './suggestions';
import { MarkdownTable } from './table';

/** The fence info string that turns a code block into follow-up links. */
export const SUGGESTIONS_LANGUAGE = 'suggestions';

// Module-level so every block gets the same array and react-markdown sees no change.
const remarkPlugins = [remarkGfmSyntax];

interface LinkPolicy {
  resolveHref: (href: string) => string | null;
  isExternal: (href: string) => boolean;
}

const LinkPolicyContext = createContext<LinkPolicy | null>(null);

function useLinkPolicy(): LinkPolicy {
  const policy = useContext(LinkPolicyContext);
  if (!policy) throw new Error('docs-assistant: Markdown elements must be rendered inside <Markdown>.');
  return policy;
}

// Drops the hast node react-markdown passes along so it never lands on a DOM element.
type ElementProps<T extends keyof JSX.IntrinsicElements> = ComponentPropsWithoutRef<T> & ExtraProps;

function MarkdownLink({ node: _node, href, children, ...props }: ElementProps<'a'>) {
  const { resolveHref, isExternal } = useLinkPolicy();
  const resolved = href ? resolveHref(href) : null;
  // An unsafe or unresolvable link keeps its words and loses the link.
  if (!resolved) return <>{children}</>;
  return (
    <a {...props} href={resolved} {...(isExternal(resolved) ? externalLinkProps : undefined)}>
      {children}
    </a>
  );
}

function MarkdownImage({ node: _node, src, alt, ...props }: ElementProps<'img'>) {
  const { resolveHref } = useLinkPolicy();
  const resolved = typeof src === 'string' && src ? resolveHref(src) : null;
  if (!resolved || resolved.startsWith('mailto:')) return alt || null;
  return <img {...props} src={resolved} alt={alt ?? ''} loading="lazy" />;
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

function languageOf(code: HastLike): string | undefined {
  const className = code.properties?.className;
  const classes = Array.isArray(className) ? className : typeof className === 'string' ? [className] : [];
  for (const name of classes) {
    if (typeof name === 'string' && name.startsWith('language-')) return name.slice('language-'.length);
  }
  return undefined;
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
// host overrides never receives a `javascript:` href.
const urlTransform = (url: string): string | null => (isSafeHref(url) ? url : null);

interface MarkdownBlockProps {
  source: string;
  components: Components;
}

/** One top-level block; memoised on its text so finished blocks never re-parse. */
const MarkdownBlock = memo(
  function MarkdownBlock({ source, components }: MarkdownBlockProps) {
    return (
      <ReactMarkdown remarkPlugins={remarkPlugins} components={components} urlTransform={urlTransform}>
        {source}
      </ReactMarkdown>
    );
  },
  (prev, next) => prev.source === next.source && prev.components === next.components,
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
   * Element overrides for react-markdown (`{ table: MyTable }`), merged over the defaults (links,
   * images, code blocks). Keep the object stable (module level or `useMemo`): a new one re-renders
   * every block.
   */
  components?: Components;
  children?: ReactNode;
}

/**
 * Markdown for answers. The text is split into top-level blocks (`splitMarkdownBlocks`) and each
 * block is memoised, so while an answer streams only its last block re-renders.
 */
export function Markdown({
  text,
  resolveHref = keepSafeHref,
  components,
  children,
  ...props
}: MarkdownProps) {
  // The previous split, so a streaming answer only re-splits its tail (20k-token answers).
  const split = useRef<MarkdownBlocks | undefined>(undefined);
  const blocks = useMemo(() => {
    split.current = updateMarkdownBlocks(split.current, typeof text === 'string' ? text : '');
    return split.current.blocks;
  }, [text]);
  const policy = useMemo<LinkPolicy>(
    () => ({ resolveHref, isExternal: createIsExternal(resolveHref) }),
    [resolveHref],
  );
  const elements = useMemo(
    () => (components ? { ...defaultElements, ...components } : defaultElements),
    [components],
  );
  return (
    <LinkPolicyContext.Provider value={policy}>
      <div data-markdown="" {...props}>
        {blocks.map((block, index) => (
          // Blocks only ever get appended while streaming, so the position is a stable key.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <MarkdownBlock key={index} source={block} components={elements} />
        ))}
        {children}
      </div>
    </LinkPolicyContext.Provider>
  );
}

/**
 * `Markdown` for text that may still be streaming. Parsing is the expensive step, so it never
 * happens in the chat client's update (a synchronous render): the text is a deferred value,
 * rendered in the background one block at a time with pauses for input and frames, skipping
 * intermediate texts when rendering falls behind the stream. Text that mounts while streaming
 * starts empty, so even a first batch holding much of the answer is parsed that way; text that
 * mounts finished (a restored conversation) renders at once. When the stream ends, the deferred
 * text catches up the same way, without one last synchronous parse.
 *
 * While the text on screen is behind the text received, the element carries `data-pending`: an
 * answer is wholly on screen once its message has lost `data-streaming` and holds no
 * `[data-pending]`.
 */
export function StreamingMarkdown({ text, isStreaming, ...props }: MarkdownProps & { isStreaming: boolean }) {
  const shown = useDeferredValue(text, isStreaming ? '' : text);
  return <Markdown text={shown} data-pending={shown === text ? undefined : ''} {...props} />;
}
