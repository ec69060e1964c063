/**
 * Stands in for `@ungap/structured-clone` in the copy of mdast-util-to-hast the library build
 * bundles (see vite.config.ts). That package only clones plain JSON-like data (`hProperties`, node
 * `data`, footnote label properties) and already calls the platform's `structuredClone` when there
 * is one; its fallback serializer is 3 kB the widget never runs, because the chat client
 * (`@ai-sdk/ui-utils`) calls the global `structuredClone` on every stream update anyway.
 */
export default function clone<T>(value: T): T {
  return structuredClone(value);
}
