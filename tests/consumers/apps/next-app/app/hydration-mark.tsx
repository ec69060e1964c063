'use client';
/**
 * Marks the page's content as hydrated (`data-page-hydrated`) once React has taken it over, so the
 * test knows when every hydration error it could see has been reported.
 */
import { useEffect, useState } from 'react';

export function HydrationMark() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return <span hidden data-page-hydrated={hydrated ? '' : undefined} />;
}
