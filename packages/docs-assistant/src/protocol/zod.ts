/**
 * The wire contract's zod, and its schemas built without zod's JIT. zod compiles a fast path for
 * each object schema with `new Function`, and building one first probes whether it may: on a page
 * whose Content-Security-Policy has no 'unsafe-eval' the probe is refused and reported (a
 * violation in the site's CSP reports each time the static export panel loads). zod's switch is
 * global (`z.config({ jitless })`) and read as each object schema is built, so a schema module
 * turns it on before its first schema and back to what it was after its last
 * (`const built = buildingJitless(); … built();`): a host's own zod keeps its setting. Parsing the
 * contract's small bodies without the JIT costs nothing a reader or the service notices.
 */
import { z } from 'zod/v4-mini';

export { z };

/** Turns zod's JIT off for the schemas built from here; the function returned puts it back. */
export function buildingJitless(): () => void {
  const before = z.config().jitless;
  z.config({ jitless: true });
  return () => {
    z.config({ jitless: before });
  };
}
