/**
 * The shape of Markdown element overrides (`components={{ table: MyTable }}`), the same as
 * react-markdown's `components` so overrides written for it work here. Declared here rather than
 * imported from react-markdown: the widget renders Markdown with the micromark/mdast/hast packages
 * directly, and installing react-markdown (with unified, vfile and its JSX runtime) only for two
 * types would cost every host those packages.
 */
import type { Element } from 'hast';
import type { ComponentType, JSX } from 'react';

/** What an override receives besides the element's own props: the HTML tree node it renders. */
export interface ExtraProps {
  node?: Element | undefined;
}

/** Element overrides by tag name: a component, or another tag name to render instead. */
export type Components = {
  [Tag in keyof JSX.IntrinsicElements]?:
    | ComponentType<JSX.IntrinsicElements[Tag] & ExtraProps>
    | keyof JSX.IntrinsicElements;
};
