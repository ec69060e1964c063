import { useEffect, useState } from 'react';
import type { AssistantError } from '../chat/types.js';

// setTimeout's longest delay; a longer Retry-After would fire at once.
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Whether a rate-limit error's `Retry-After` wait is still running. Retry only shows once it has
 * passed: pressing it sooner would only earn another "too many requests" (the message says how long
 * to wait).
 */
export function useRetryWait(error: AssistantError | null | undefined): boolean {
  const waitMs = error?.kind === 'rate-limit' && error.retryAfter ? error.retryAfter * 1000 : 0;
  const [waited, setWaited] = useState<AssistantError | null>(null);
  useEffect(() => {
    if (!error || waitMs <= 0) return;
    const timer = setTimeout(() => setWaited(error), Math.min(waitMs, MAX_TIMER_MS));
    return () => clearTimeout(timer);
  }, [error, waitMs]);
  return waitMs > 0 && waited !== error;
}
