/**
 * The panel's view (`panel-view.ts`) for the options in effect: whether search and the assistant
 * are offered, which view typing goes to first, whether sources open in the panel, and the shared
 * transcript of the page's link.
 */
import { useCallback, useEffect, useMemo, useReducer } from 'react';
import type { AssistantError } from '../chat/types.js';
import { assistantAvailable, searchAvailable } from '../search/features.js';
import type { PreviewTarget } from '../search/page-preview.js';
import type { PanelProps } from './panel-types.js';
import { initialPanelView, panelViewReducer } from './panel-view.js';

export function usePanelView(props: PanelProps, configError: AssistantError | null) {
  const { options, search, sharedId } = props;
  const searchOptions = useMemo(
    () => ({ ...options, features: search?.features }),
    [options, search?.features],
  );
  const canSearch = searchAvailable(searchOptions) && !configError;
  const canAsk = assistantAvailable(searchOptions);
  const home = canSearch && search?.defaultView === 'search' ? 'search' : 'chat';
  const shared = configError ? null : (sharedId ?? null);
  const [view, dispatch] = useReducer(panelViewReducer, null, () => initialPanelView(home, shared));
  useEffect(() => dispatch({ type: 'shared', id: shared }), [shared]);
  const canPreview = canSearch && search?.sourceAction === 'preview';
  const preview = useCallback((target: PreviewTarget) => dispatch({ type: 'preview', target }), []);
  return { view, dispatch, searchOptions, canSearch, canAsk, onPreview: canPreview ? preview : undefined };
}
