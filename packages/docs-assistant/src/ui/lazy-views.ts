/**
 * The panel's on-demand views, each loaded the first time it shows: docs search and the page
 * preview (one chunk, search/views.ts), past conversations (views/history), sharing and support
 * (one chunk, views/share/entry.tsx), attached files (views/attachments). What they need of the
 * panel they get as props, so no chunk shares a module with the panel.
 */
import { lazy } from 'react';

const searchViews = () => import('../search/views.js');
export const SearchResults = lazy(() => searchViews().then((m) => ({ default: m.SearchResults })));
export const PagePreview = lazy(() => searchViews().then((m) => ({ default: m.PagePreview })));

export const HistoryView = lazy(() =>
  import('../views/history/entry.js').then((m) => ({ default: m.HistoryView })),
);

/** Sharing and support: the sheet, a shared transcript, the prompt, and the menu's helpers. */
export const shareSupport = () => import('../views/share/entry.js');
export type ShareSupportModule = Awaited<ReturnType<typeof shareSupport>>;
export const ShareSheet = lazy(() => shareSupport().then((m) => ({ default: m.ShareSheet })));
export const SharedTranscript = lazy(() => shareSupport().then((m) => ({ default: m.SharedTranscript })));
export const SupportPrompt = lazy(() => shareSupport().then((m) => ({ default: m.SupportPrompt })));

export const AttachmentTray = lazy(() => import('../views/attachments/tray.js'));
export type DraftAttachment = import('../views/attachments/tray.js').DraftAttachment;
export type RemoveButtonProps = import('../views/attachments/tray.js').RemoveButtonProps;
