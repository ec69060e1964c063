/** Small inline icons (decorative: the controls carry their names). Stroke paths on a 24px grid. */
const PATHS = {
  chat: 'M4 5h16v11H8l-4 4z',
  close: 'M6 6l12 12M18 6L6 18',
  send: 'M5 12h13M13 6l6 6-6 6',
  stop: 'M7 7h10v10H7z',
  copy: 'M9 9h11v11H9zM5 15V4h11',
  check: 'M5 12l5 5 9-10',
  plus: 'M12 5v14M5 12h14',
  attach: 'M20 11l-8 8a5 5 0 01-7-7l8-8a3.5 3.5 0 015 5l-8 8a2 2 0 01-3-3l7-7',
} as const;

export function Icon({ name }: { name: keyof typeof PATHS }) {
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
      <path d={PATHS[name]} />
    </svg>
  );
}
