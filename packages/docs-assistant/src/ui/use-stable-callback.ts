import { useCallback, useRef } from 'react';

/**
 * A function of constant identity that calls the `fn` of the latest render, for memoised children
 * and for callbacks handed out once (the panel bridge). Called during render it would see the
 * previous render's `fn`; it is meant for event handlers.
 */
export function useStableCallback<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  const latest = useRef(fn);
  latest.current = fn;
  return useCallback((...args: A) => latest.current(...args), []);
}
