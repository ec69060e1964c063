/**
 * Class names for the slots the part renderers draw (`part` wrappers, `source` links, `suggestion`
 * links), handed down by `MessageParts` so that renderers deep inside the Markdown (the suggestions
 * block) get them without a prop through every layer.
 */
import { createContext, useContext } from 'react';

/** The per-slot class names of the parts (the matching keys of `<DocsAssistant classNames>`). */
export interface PartClassNames {
  /** Each `data-docs-assistant="part"` wrapper. */
  part?: string;
  /** Each `data-docs-assistant="source"` link. */
  source?: string;
  /** Each `data-docs-assistant="suggestion"` link. */
  suggestion?: string;
}

const NO_CLASS_NAMES: PartClassNames = {};

export const PartClassNamesContext = createContext<PartClassNames>(NO_CLASS_NAMES);
PartClassNamesContext.displayName = 'PartClassNamesContext';

/**
 * The class names `MessageParts` provides; empty outside it, so a renderer used on its own (e.g.
 * `Markdown` in a host's custom UI) simply gets no extra classes.
 */
export function usePartClassNames(): PartClassNames {
  return useContext(PartClassNamesContext);
}
