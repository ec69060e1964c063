import type { CSSProperties } from 'react';

/** Joins class names, dropping empty ones; `undefined` when none so no empty `class` is rendered. */
export function cx(...names: Array<string | false | null | undefined>): string | undefined {
  const joined = names.filter(Boolean).join(' ');
  return joined || undefined;
}

/** Inline so it holds with `unstyled` too: text for screen readers only. */
export const visuallyHidden: CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  margin: -1,
  padding: 0,
  border: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
};

/** A boolean as a present (`""`) or absent data attribute, never `"true"`/`"false"`. */
export const flag = (on: boolean | undefined): '' | undefined => (on ? '' : undefined);
