import { Component, type ErrorInfo, type ReactNode } from 'react';
import type { AssistantError } from '../chat/types.js';

/**
 * Logs an error of the widget itself once and tells the host's `onError`; a throwing `onError` is
 * logged, never rethrown. `kind`/`origin`: see `AssistantError`.
 */
export function reportWidgetError(
  onError: ((error: AssistantError) => void) | undefined,
  kind: 'network' | 'unavailable',
  message: string,
  cause: unknown,
): void {
  console.error(`docs-assistant: ${message} The page is not affected.`, cause);
  try {
    onError?.({
      kind,
      origin: kind === 'network' ? 'load' : 'render',
      message,
      detail: cause instanceof Error ? cause.message : String(cause),
      retryable: true,
    });
  } catch (thrown) {
    console.error(thrown);
  }
}

export interface BoundaryProps {
  /** What to render instead of the children once they threw; `reset` renders them again. */
  fallback: (reset: () => void) => ReactNode;
  /** Told once per caught error. Must not throw: nothing above would catch it. */
  onCatch: (error: unknown) => void;
  children?: ReactNode;
}

/**
 * Keeps an exception thrown while rendering (or in an effect of) the widget inside the widget: the
 * host's React tree above it never sees it, so the host page never goes blank because of us.
 */
export class Boundary extends Component<BoundaryProps, { failed: boolean }> {
  static displayName = 'DocsAssistantBoundary';
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, _info: ErrorInfo): void {
    try {
      this.props.onCatch(error);
    } catch {
      // A throwing onError must not turn a contained error into one that escapes.
    }
  }

  reset = (): void => this.setState({ failed: false });

  override render(): ReactNode {
    return this.state.failed ? this.props.fallback(this.reset) : this.props.children;
  }
}
