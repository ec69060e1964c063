import { Component, type ComponentType, memo, type ReactNode, useCallback, useMemo, useRef } from 'react';
import type { AssistantMessage } from '../chat/types.js';
import { warnOnce } from '../chat/warn.js';
import type { SourceLink } from '../protocol/search-results.js';
import { isRecord } from '../protocol/search-results.js';
import {
  sameContext,
  sameFilePart,
  sameReasoningPart,
  sameSources,
  sameTextPart,
  sameToolInvocation,
} from './equality.js';
import { FilePart } from './file-part.js';
import { createImagePolicy, ImagePolicyContext } from './image-policy.js';
import { type PartClassNames, PartClassNamesContext, usePartClassNames } from './part-class-names.js';
import { ReasoningPart } from './reasoning-part.js';
import { collectSources, SourcesList } from './sources.js';
import { TextPart } from './text-part.js';
import { ToolInvocationPart } from './tool-invocation-part.js';
import type {
  FilePartProps,
  PartComponents,
  PartRenderContext,
  PartStatus,
  ReasoningPartProps,
  SourcesProps,
  TextPartProps,
  ToolInvocationProps,
} from './types.js';

type UIPart = AssistantMessage['parts'][number];
type ToolRenderer = ComponentType<ToolInvocationProps> | null;

/** `components` with every key filled in: a renderer, or `null` for a hidden type. */
interface ResolvedComponents {
  text: ComponentType<TextPartProps> | null;
  reasoning: ComponentType<ReasoningPartProps> | null;
  source: ComponentType<SourcesProps> | null;
  file: ComponentType<FilePartProps> | null;
  toolInvocation: { byName: Record<string, ToolRenderer>; fallback: ToolRenderer } | null;
}

/** The renderers used where `components` names none. */
export const defaultPartComponents = {
  text: TextPart,
  reasoning: ReasoningPart,
  source: SourcesList,
  file: FilePart,
  toolInvocation: { byName: {}, fallback: ToolInvocationPart },
} satisfies ResolvedComponents;

/** `undefined` keeps the default, `null` hides, a component replaces. */
function pick<T>(override: T | null | undefined, fallback: T): T | null {
  return override === undefined ? fallback : override;
}

function resolveComponents(components: PartComponents | undefined): ResolvedComponents {
  const tools = components?.toolInvocation;
  return {
    text: pick(components?.text, defaultPartComponents.text),
    reasoning: pick(components?.reasoning, defaultPartComponents.reasoning),
    source: pick(components?.source, defaultPartComponents.source),
    file: pick(components?.file, defaultPartComponents.file),
    toolInvocation:
      tools === null
        ? null
        : {
            byName: { ...defaultPartComponents.toolInvocation.byName, ...tools?.byName },
            fallback: pick(tools?.fallback, defaultPartComponents.toolInvocation.fallback),
          },
  };
}

function toolRenderer(components: ResolvedComponents, toolName: string): ToolRenderer {
  const tools = components.toolInvocation;
  if (!tools) return null;
  return Object.hasOwn(tools.byName, toolName) ? (tools.byName[toolName] ?? null) : tools.fallback;
}

interface PartSlotProps extends PartRenderContext {
  part: UIPart;
  components: ResolvedComponents;
}

/**
 * Whether a part has the fields its renderer reads, with the types it reads them as. The v4 client
 * checks little of what the stream sends (a `source` only has to be an object), so a part that
 * fails here is skipped rather than handed to a renderer that would throw on it.
 */
function isRenderable(part: UIPart): boolean {
  if (!isRecord(part)) return false;
  switch (part.type) {
    case 'text':
      return typeof part.text === 'string';
    case 'reasoning':
      return typeof part.reasoning === 'string' || Array.isArray(part.details);
    case 'tool-invocation': {
      const call: unknown = part.toolInvocation;
      return isRecord(call) && typeof call.toolName === 'string' && typeof call.state === 'string';
    }
    case 'file':
      return typeof part.mimeType === 'string' && typeof part.data === 'string';
    default:
      return true;
  }
}

function samePart(a: UIPart, b: UIPart): boolean {
  if (!isRenderable(a) || !isRenderable(b)) return a === b;
  switch (a.type) {
    case 'text':
      return b.type === 'text' && sameTextPart(a, b);
    case 'reasoning':
      return b.type === 'reasoning' && sameReasoningPart(a, b);
    case 'tool-invocation':
      return b.type === 'tool-invocation' && sameToolInvocation(a.toolInvocation, b.toolInvocation);
    case 'file':
      return b.type === 'file' && sameFilePart(a, b);
    case 'source':
      // Sources render in the list after the parts, from `message`: nothing to compare here.
      return b.type === 'source';
    default:
      return a.type === b.type;
  }
}

interface PartBoundaryProps {
  part: UIPart;
  children: ReactNode;
}

/**
 * The last line of defence: a renderer (a host's own, say) that throws on a part loses that part
 * only, not the whole conversation (React reports the error). The next version of the part gets a
 * fresh try.
 */
class PartBoundary extends Component<PartBoundaryProps, { part: UIPart; failed: boolean }> {
  override state = { part: this.props.part, failed: false };

  static getDerivedStateFromProps(props: PartBoundaryProps, state: { part: UIPart }) {
    return props.part === state.part ? null : { part: props.part, failed: false };
  }

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render(): ReactNode {
    return this.state.failed ? null : this.props.children;
  }
}

/** One part in its `data-docs-assistant="part"` wrapper, re-rendered only when its content changes. */
const PartSlot = memo(
  function PartSlot(props: PartSlotProps) {
    return (
      <PartBoundary part={props.part}>
        <PartContent {...props} />
      </PartBoundary>
    );
  },
  (prev, next) =>
    prev.components === next.components && samePart(prev.part, next.part) && sameContext(prev, next),
);
PartSlot.displayName = 'PartSlot';

/** An unknown or malformed part: nothing shown, a warning in development. */
function skip(part: unknown): null {
  const type = isRecord(part) ? String(part.type) : typeof part;
  warnOnce(
    `part:${type}`,
    `a message part of type "${type}" is not shown: no renderer for that type (text, reasoning, tool-invocation, source, file, step-start), or a field it needs is missing.`,
    true,
  );
  return null;
}

function PartContent({ part, components, ...context }: PartSlotProps) {
  const className = usePartClassNames().part;
  if (!isRenderable(part)) return skip(part);
  switch (part.type) {
    case 'text':
    case 'reasoning':
    case 'file': {
      // The renderer of the part's type (`components.text` takes a text part…): TypeScript cannot
      // pair the two through the union, hence the cast.
      const Part = components[part.type] as
        | ComponentType<{ part: typeof part } & PartRenderContext>
        | null
        | undefined;
      return Part ? (
        <div className={className} data-docs-assistant="part" data-part-type={part.type}>
          <Part part={part} {...context} />
        </div>
      ) : null;
    }
    case 'tool-invocation': {
      const { toolInvocation } = part;
      const Tool = toolRenderer(components, toolInvocation.toolName);
      return Tool ? (
        <div
          className={className}
          data-docs-assistant="part"
          data-part-type="tool-invocation"
          data-tool-name={toolInvocation.toolName}
          data-tool-state={toolInvocation.state}
          // A call the reader stopped (or the stream broke off) is not "in progress" any more.
          data-incomplete={context.status?.type === 'incomplete' ? '' : undefined}
        >
          <Tool toolInvocation={toolInvocation} {...context} />
        </div>
      ) : null;
    }
    // Sources are listed once, after the parts (see MessageParts); step boundaries need no mark.
    case 'source':
    case 'step-start':
      return null;
    default:
      return skip(part);
  }
}

interface SourcesSlotProps extends PartRenderContext {
  sources: SourceLink[];
  Sources: ComponentType<SourcesProps>;
}

const SourcesSlot = memo(
  function SourcesSlot({ Sources, ...props }: SourcesSlotProps) {
    const className = usePartClassNames().part;
    return (
      <div className={className} data-docs-assistant="part" data-part-type="source">
        <Sources {...props} />
      </div>
    );
  },
  (prev, next) =>
    prev.Sources === next.Sources && sameSources(prev.sources, next.sources) && sameContext(prev, next),
);
SourcesSlot.displayName = 'SourcesSlot';

export interface MessagePartsProps {
  message: AssistantMessage;
  /** The message is still streaming (its last part is being written). @default false */
  isStreaming?: boolean;
  /**
   * Where the message stands: its last part gets this status, the ones before it `complete`.
   * @default `running` while `isStreaming`, else `complete`
   */
  status?: PartStatus;
  /**
   * Per-type renderers merged key by key over the defaults; `null` hides a type. Keep the object
   * stable (module level or `useMemo`): a new one re-renders every part.
   */
  components?: PartComponents;
  /**
   * Resolves links against the docs site; `null` drops a link. Make it once (`useMemo` around
   * `createHrefResolver(docsBaseUrl)`): a new function re-renders every part.
   */
  resolveHref: (href: string) => string | null;
  /** Sends a follow-up question; may change on every render without re-rendering parts. */
  onAsk?: (question: string) => void;
  /**
   * Class names for the `part` wrappers, the `source` links and the `suggestion` links; renderers
   * read them with `usePartClassNames()`.
   */
  classNames?: PartClassNames;
  /**
   * Origins images in the answer may load from (`https://cdn.example.com`), plus `'data:'` for
   * `data:` raster images; any other image shows as a link (text, reasoning, files). Throws a
   * TypeError naming an entry that is not an origin.
   * @default the docs site's origin (`resolveHref('/')`, else the page's) and `'data:'`
   */
  allowedImageOrigins?: readonly string[];
}

const RUNNING: PartStatus = { type: 'running' };
const COMPLETE: PartStatus = { type: 'complete' };

/**
 * Renders a message's parts with the per-type renderers, then its sources. Finished parts do not
 * re-render while the last one streams, even though the v4 client hands over new part objects on
 * every update (renderers are memoised on content).
 */
export const MessageParts = memo(function MessageParts({
  message,
  isStreaming = false,
  status = isStreaming ? RUNNING : COMPLETE,
  components,
  resolveHref,
  onAsk,
  classNames,
  allowedImageOrigins,
}: MessagePartsProps) {
  const resolved = useMemo(() => resolveComponents(components), [components]);
  // Hosts often pass `classNames` inline: keyed on the strings, so parts do not re-render for it.
  const { part: partClass, source: sourceClass, suggestion: suggestionClass } = classNames ?? {};
  const classNamesValue = useMemo(
    () => ({ part: partClass, source: sourceClass, suggestion: suggestionClass }),
    [partClass, sourceClass, suggestionClass],
  );

  // A stable wrapper: hosts often pass a fresh `send` each render, and re-rendering every part
  // for it would undo the memoisation.
  const onAskRef = useRef(onAsk);
  onAskRef.current = onAsk;
  const hasOnAsk = onAsk !== undefined;
  const stableOnAsk = useCallback((question: string) => onAskRef.current?.(question), []);
  const ask = hasOnAsk ? stableOnAsk : undefined;

  // Keyed on the origins' text: hosts often pass the array inline.
  const origins = allowedImageOrigins?.join('\n');
  const imagePolicy = useMemo(
    () =>
      createImagePolicy(origins === undefined ? undefined : origins ? origins.split('\n') : [], resolveHref),
    [origins, resolveHref],
  );

  const parts = Array.isArray(message.parts) ? message.parts : [];
  const sources = useMemo(() => collectSources(message, resolveHref), [message, resolveHref]);
  const Sources = resolved.source;
  // What the sources are handed; each part gets the same, with its own isStreaming and status.
  const context: PartRenderContext = { message, isStreaming, status, resolveHref, onAsk: ask };

  return (
    <ImagePolicyContext.Provider value={imagePolicy}>
      <PartClassNamesContext.Provider value={classNamesValue}>
        {parts.map((part, index) => (
          <PartSlot
            // Parts are only ever appended to a message, so the position is a stable key.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            key={index}
            part={part}
            components={resolved}
            {...context}
            isStreaming={isStreaming && index === parts.length - 1}
            status={index === parts.length - 1 ? status : COMPLETE}
          />
        ))}
        {Sources && sources.length > 0 ? (
          <SourcesSlot Sources={Sources} sources={sources} {...context} />
        ) : null}
      </PartClassNamesContext.Provider>
    </ImagePolicyContext.Provider>
  );
});
MessageParts.displayName = 'MessageParts';
