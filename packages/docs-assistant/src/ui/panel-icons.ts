/**
 * The panel's icons (`Icon`'s paths), loaded with the panel rather than up front (see icons.tsx);
 * the close icon is the shell's (`CloseIcon` in `shell-frame.tsx`).
 */
export const ICONS = {
  send: 'M5 12h13M13 6l6 6-6 6',
  stop: 'M7 7h10v10H7z',
  copy: 'M9 9h11v11H9zM5 15V4h11',
  check: 'M5 12l5 5 9-10',
  attach: 'M20 11l-8 8a5 5 0 01-7-7l8-8a3.5 3.5 0 015 5l-8 8a2 2 0 01-3-3l7-7',
  compose: 'M11 4H5v15h15v-6M18 3l3 3-9 9H9v-3z',
  history: 'M3 12a9 9 0 1 0 3-6.7L3 8M3 3v5h5M12 7v5l3 2',
  more: 'M5 12h.01M12 12h.01M19 12h.01',
  share: 'M12 3v12M7 8l5-5 5 5M5 13v7h14v-7',
  search: 'M10.5 4a6.5 6.5 0 1 0 0 13 6.5 6.5 0 0 0 0-13zM20 20l-4.8-4.8',
  support: 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM9.5 9.5a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .9-1 1.6V14M12 17h.01',
  consent: 'M12 3l8 3v6c0 4.5-3.4 7.7-8 9-4.6-1.3-8-4.5-8-9V6zM9 12l2 2 4-4',
  retry: 'M4 5v5h5M5.5 15a7 7 0 1 0 .5-6.5L4 10',
} as const;

export type IconName = keyof typeof ICONS;
