import type { MouseEvent, ReactNode } from 'react';

/**
 * The icon-only button that removes one item of a list (a context chip, an attachment, a past
 * conversation): its label is its accessible name and its tooltip.
 */
export function RemoveButton({
  action,
  label,
  onClick,
  children,
}: {
  /** Its `data-action`. */
  action: string;
  label: string;
  onClick: (event: MouseEvent<HTMLButtonElement>) => void;
  /** The icon. */
  children: ReactNode;
}) {
  return (
    <button type="button" data-action={action} aria-label={label} title={label} onClick={onClick}>
      {children}
    </button>
  );
}

/**
 * A decorative stroked icon on the 24px grid, `size` pixels square, drawn by its path's own stroke
 * (`Icon` in icons.tsx strokes from the `<svg>`): `outline` for a closed shape, unfilled and with
 * round joins.
 */
export function PathIcon({ size, path, outline }: { size: number; path: string; outline?: boolean }) {
  return (
    <svg aria-hidden="true" focusable="false" width={size} height={size} viewBox="0 0 24 24">
      <path
        d={path}
        fill={outline ? 'none' : undefined}
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin={outline ? 'round' : undefined}
      />
    </svg>
  );
}
