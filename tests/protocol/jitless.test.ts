/**
 * The wire contract's schemas are built without zod's JIT (`protocol/zod.ts`): building an object
 * schema with it on runs `new Function`, which a page's CSP without 'unsafe-eval' refuses and
 * reports. zod's switch is global, so the contract puts it back as the host had it: a host's own
 * schemas keep the JIT. Counted by watching the global `Function` zod compiles with.
 */
import { z } from 'zod/v4-mini';

let compiled = 0;
const RealFunction = globalThis.Function;

beforeAll(() => {
  globalThis.Function = new Proxy(RealFunction, {
    construct(target, args) {
      compiled += 1;
      return Reflect.construct(target, args);
    },
    apply(target, self, args) {
      compiled += 1;
      return Reflect.apply(target, self, args);
    },
  });
});

afterAll(() => {
  globalThis.Function = RealFunction;
});

it('builds and parses the contract without new Function, and leaves the host its JIT', async () => {
  z.config({ jitless: false }); // the host's own setting, which must survive
  const { StaticExportJobSchema } = await import(
    '../../packages/docs-assistant/src/protocol/static-export.js'
  );
  const { ErrorBodySchema } = await import('../../packages/docs-assistant/src/protocol/errors.js');
  const { validateAssistantRequest } = await import('../../packages/docs-assistant/src/protocol/schemas.js');
  expect(z.config().jitless).toBe(false);

  expect(StaticExportJobSchema.safeParse({ jobId: 'j1', status: 'queued' }).success).toBe(true);
  expect(ErrorBodySchema.safeParse({ error: { message: 'no' } }).success).toBe(false);
  const request = {
    fp: 'anonymous',
    messages: [{ id: 'm1', role: 'user', content: 'How?', parts: [{ type: 'text', text: 'How?' }] }],
  };
  expect(validateAssistantRequest(request).success).toBe(true);
  expect(compiled).toBe(0);

  // A host's schema, built after the contract's: zod compiles its fast path (the count works).
  const host = z.object({ name: z.string() });
  expect(host.safeParse({ name: 'x' }).success).toBe(true);
  expect(compiled).toBeGreaterThan(0);
});
