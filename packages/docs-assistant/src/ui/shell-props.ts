import type { DocsAssistantProps } from './types.js';

/**
 * The props that go on the root element: everything but the widget's own (the hook and the panel
 * read theirs from the props by name), so `id`, `style`, `dir`, `aria-*` and handlers reach the DOM.
 */
export function rootPropsOf(props: DocsAssistantProps) {
  const {
    variant: _variant,
    open: _open,
    defaultOpen: _defaultOpen,
    onOpenChange: _onOpenChange,
    shortcut: _shortcut,
    starterQuestions: _starterQuestions,
    labels: _labels,
    theme: _theme,
    unstyled: _unstyled,
    classNames: _classNames,
    components: _components,
    collectors: _collectors,
    docsBaseUrl: _docsBaseUrl,
    allowedImageOrigins: _allowedImageOrigins,
    whenUnavailable: _whenUnavailable,
    domain: _domain,
    apiKey: _apiKey,
    baseUrl: _baseUrl,
    api: _api,
    fp: _fp,
    retrievalPageSize: _retrievalPageSize,
    filter: _filter,
    currentPath: _currentPath,
    storage: _storage,
    deployment: _deployment,
    fetch: _fetch,
    headers: _headers,
    onFinish: _onFinish,
    onError: _onError,
    className: _className,
    features: _features,
    defaultView: _defaultView,
    sourceAction: _sourceAction,
    consent: _consent,
    onEvent: _onEvent,
    eventsIncludeText: _eventsIncludeText,
    feedback: _feedback,
    share: _share,
    support: _support,
    attachments: _attachments,
    ...rootProps
  } = props;
  return rootProps;
}
