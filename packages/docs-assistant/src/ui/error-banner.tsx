import type { AssistantError } from '../chat/types.js';
import { type Labels, useLabels } from '../labels/index.js';

/** The reader-facing sentence for an error kind, from the labels in effect. */
export function errorText(error: AssistantError, labels: Labels): string {
  switch (error.kind) {
    case 'auth':
      return labels.errorAuth;
    case 'rate-limit':
      return labels.errorRateLimit(error.retryAfter);
    case 'network':
      return labels.errorNetwork;
    case 'stream':
      return labels.errorStream;
    case 'request':
      return labels.errorRequest;
    case 'config':
      return labels.errorConfig;
    case 'unavailable':
      return labels.unavailable;
    default:
      return error.message;
  }
}

export interface ErrorBannerProps {
  error: AssistantError;
  className?: string;
  /** Shown as a Retry button when the error is `retryable`. */
  onRetry?: () => void;
}

/**
 * An error the reader can act on. `role="alert"` announces it once when it appears. The detail is
 * shown for bad requests (the server's words) and config errors (what the developer must change).
 */
export function ErrorBanner({ error, className, onRetry }: ErrorBannerProps) {
  const labels = useLabels();
  const showDetail = !!error.detail && (error.kind === 'request' || error.kind === 'config');
  return (
    <div data-docs-assistant="error" data-error-kind={error.kind} role="alert" className={className}>
      <p>{errorText(error, labels)}</p>
      {showDetail ? <p data-docs-assistant="error-detail">{error.detail}</p> : null}
      {error.retryable && onRetry ? (
        <button type="button" data-action="retry" onClick={onRetry}>
          {labels.retry}
        </button>
      ) : null}
    </div>
  );
}
