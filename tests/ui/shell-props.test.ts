/**
 * The root element gets the host's HTML attributes and none of the widget's own props: a prop added
 * to `DocsAssistantProps` but not to `OWN_PROPS` would reach the DOM as an attribute (React warns,
 * and a function or object prop is written as a string). The first check is a type check: `npm run
 * typecheck` fails when a prop is missing from the list.
 */
import type { HTMLAttributes } from 'react';
import { OWN_PROPS, rootPropsOf } from '../../packages/docs-assistant/src/ui/shell-props';
import type { DocsAssistantProps } from '../../packages/docs-assistant/src/ui/types';

type RootAttributes = keyof Omit<HTMLAttributes<HTMLDivElement>, 'onError' | 'title'>;
type Listed = typeof OWN_PROPS extends Set<infer Name> ? Name : never;

it('lists every prop of the widget’s own', () => {
  expectTypeOf<Exclude<keyof DocsAssistantProps, RootAttributes | Listed>>().toEqualTypeOf<never>();
});

it('keeps them off the root element and passes the host’s attributes on', () => {
  const own = Object.fromEntries([...OWN_PROPS].map((name) => [name, 'given']));
  const props = { ...own, id: 'assistant', 'aria-describedby': 'help', 'data-testing': 'yes' };
  expect(rootPropsOf(props as unknown as DocsAssistantProps)).toEqual({
    id: 'assistant',
    'aria-describedby': 'help',
    'data-testing': 'yes',
  });
});
