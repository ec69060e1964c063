/**
 * Small inline icons (decorative: the controls carry their names). Stroke paths on a 24px grid.
 * The launcher's and the panel frame's paths are here; the panel's own are in `panel-icons.ts`, so
 * the page carries only these two before the assistant is opened.
 */
export const CHAT = 'M4 5h16v11H8l-4 4z';
export const CLOSE = 'M6 6l12 12M18 6L6 18';

export function Icon({ path }: { path: string }) {
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      width="16"
      height="16"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={path} />
    </svg>
  );
}
