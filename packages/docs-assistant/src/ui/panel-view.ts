/**
 * What the panel shows, as one value: a view of the union below, and a docs page previewed over
 * the conversation or the search results. Every way of changing it is an action of the reducer,
 * so "which view is on" is decided in one place, never by flags tested where they are drawn.
 */
import type { PreviewTarget } from '../search/page-preview.js';

/**
 * `chat`: the conversation. `search`: typing searches the docs (results in the conversation's
 * place once something is typed). `history`: the past conversations. `shared`: a shared
 * transcript opened from a link, read-only. `consent`: the notice, shown by the shell until the
 * reader accepts (the panel's code is not loaded before).
 */
export type PanelViewName = 'chat' | 'search' | 'history' | 'shared' | 'consent';

export interface PanelView {
  name: PanelViewName;
  /** A page opened from a search result or a source, shown in place of what the view shows. */
  preview: PreviewTarget | null;
  /** The view that typing goes to when the panel opens or a conversation starts afresh. */
  home: 'chat' | 'search';
  /** Where closing the history goes back to: the typing view shown before it. */
  back: 'chat' | 'search';
  /** The shared transcript's id while `name` is `shared`; the last one closed, so it stays closed. */
  sharedId: string | null;
  closedSharedId: string | null;
}

export type PanelViewAction =
  | { type: 'show'; name: 'chat' | 'search' | 'history' }
  /** Shows the view, or the home view when it is already shown. */
  | { type: 'toggle'; name: 'search' | 'history' }
  | { type: 'preview'; target: PreviewTarget | null }
  /** The page's share link (`?assistant-share=`): its transcript, unless the reader closed it. */
  | { type: 'shared'; id: string | null }
  /** The shared transcript closed or continued: back to the conversation, for good. */
  | { type: 'close-shared' }
  /** A new conversation: the home view, nothing previewed. */
  | { type: 'reset' };

export function initialPanelView(home: 'chat' | 'search', sharedId: string | null): PanelView {
  const view: PanelView = {
    name: home,
    preview: null,
    home,
    back: home,
    sharedId: null,
    closedSharedId: null,
  };
  return panelViewReducer(view, { type: 'shared', id: sharedId });
}

export function panelViewReducer(view: PanelView, action: PanelViewAction): PanelView {
  switch (action.type) {
    case 'show':
      return show(view, action.name);
    case 'toggle':
      if (view.name !== action.name) return show(view, action.name);
      return show(view, action.name === 'search' ? 'chat' : view.back);
    case 'preview':
      return view.preview === action.target ? view : { ...view, preview: action.target };
    case 'shared':
      if (!action.id || action.id === view.closedSharedId || action.id === view.sharedId) return view;
      return { ...view, name: 'shared', sharedId: action.id, preview: null };
    case 'close-shared':
      return { ...show(view, view.back), sharedId: null, closedSharedId: view.sharedId };
    case 'reset':
      return { ...show(view, view.home), sharedId: null };
  }
}

function show(view: PanelView, name: 'chat' | 'search' | 'history'): PanelView {
  return { ...view, name, preview: null, back: name === 'history' ? view.back : name };
}
