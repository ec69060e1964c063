/** The code blocks offered when no selector is given. */
export const DEFAULT_CODE_BLOCK_SELECTOR = 'pre';

/** Which collectors run: the `collectors` prop of `<DocsAssistant>` (`CollectorOptions | false`). */
export type CollectorsProp = { selection?: boolean; codeBlocks?: boolean | string } | false | undefined;

/** What the hooks need from the `collectors` prop: a flag and a selector (`false` when off). */
export interface ResolvedCollectors {
  selection: boolean;
  codeBlocks: string | false;
}

/** Applies the defaults of `collectors` (everything on, code blocks are `pre`). */
export function resolveCollectors(collectors: CollectorsProp): ResolvedCollectors {
  if (collectors === false) return { selection: false, codeBlocks: false };
  const codeBlocks = collectors?.codeBlocks ?? true;
  return {
    selection: collectors?.selection ?? true,
    codeBlocks: codeBlocks === true ? DEFAULT_CODE_BLOCK_SELECTOR : codeBlocks,
  };
}
