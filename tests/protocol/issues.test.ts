import { en } from 'zod/v4/locales';
import { z } from 'zod/v4-mini';
import { describeIssues, validateAssistantRequest } from '../../packages/docs-assistant/src/protocol';
import {
  bundleExpiryTime,
  progressPercent,
  StartStaticExportJobBodySchema,
  StaticExportBundleSchema,
  StaticExportJobSchema,
  StaticExportStartedJobSchema,
} from '../../packages/docs-assistant/src/protocol/static-export';

const message = { id: 'm1', role: 'user', content: 'How?', parts: [{ type: 'text', text: 'How?' }] };

describe('describeIssues', () => {
  it('gives the same words whatever global zod config a host app has set', () => {
    const before = validateAssistantRequest({ fp: 5, messages: [{ ...message, role: 'bot' }] });
    const staticBefore = StartStaticExportJobBodySchema.safeParse({ domain: 5 }, { reportInput: true });
    z.config(en());
    try {
      const after = validateAssistantRequest({ fp: 5, messages: [{ ...message, role: 'bot' }] });
      expect(after).toEqual(before);
      expect(after.success).toBe(false);
      if (!after.success) {
        expect(after.problems).toEqual([
          {
            path: 'fp',
            message: 'expected a string (the reader\'s fingerprint, or "anonymous"), got a number (5)',
          },
          {
            path: 'messages.0.role',
            message: 'one of: system, assistant, data, user (got the string "bot")',
          },
        ]);
      }
      const staticAfter = StartStaticExportJobBodySchema.safeParse({ domain: 5 }, { reportInput: true });
      expect(staticBefore.success || describeIssues(staticBefore.error.issues)).toEqual(
        staticAfter.success || describeIssues(staticAfter.error.issues),
      );
    } finally {
      z.config({ localeError: undefined });
    }
  });

  it('falls back to words from the issue code where no hint is given', () => {
    const result = z
      .object({ n: z.number(), tags: z.array(z.string()) })
      .safeParse({ n: 'x', tags: [1] }, { reportInput: true });
    expect(result.success || describeIssues(result.error.issues)).toEqual([
      { path: 'n', message: 'expected a number, got the string "x"' },
      { path: 'tags.0', message: 'expected a string, got a number (1)' },
    ]);
  });
});

describe('static export schemas accept what the spec guarantees (§4.2–4.4)', () => {
  it('start: { jobId }; status: { status } of any value; bundle: { bundleUrl, expiresAt }', () => {
    expect(StaticExportStartedJobSchema.parse({ jobId: 'job-1' })).toEqual({ jobId: 'job-1' });
    expect(StaticExportJobSchema.parse({ status: 'completed' })).toEqual({ status: 'completed' });
    expect(
      StaticExportJobSchema.parse({ status: 'rendering', progress: '0.4', pageCount: '6' }),
    ).toMatchObject({
      status: 'rendering',
    });
    expect(
      StaticExportBundleSchema.parse({ bundleUrl: 'https://x/b.tgz', expiresAt: 1_900_000_000 }),
    ).toEqual({
      bundleUrl: 'https://x/b.tgz',
      expiresAt: 1_900_000_000,
    });
    expect(StaticExportJobSchema.safeParse({ progress: 4 }).success).toBe(false);
    expect(StaticExportStartedJobSchema.safeParse({ status: 'queued' }).success).toBe(false);
    expect(StaticExportBundleSchema.safeParse({ bundleUrl: 'x' }).success).toBe(false);
  });

  it('reads expiresAt as ISO, epoch seconds or epoch milliseconds', () => {
    const iso = '2030-01-01T00:00:00.000Z';
    const ms = Date.parse(iso);
    expect(bundleExpiryTime(iso)).toBe(ms);
    expect(bundleExpiryTime(ms / 1000)).toBe(ms);
    expect(bundleExpiryTime(ms)).toBe(ms);
    expect(bundleExpiryTime(String(ms / 1000))).toBe(ms);
    expect(bundleExpiryTime('soon')).toBeNaN();
  });

  it('reads progress as a percentage when it is numeric', () => {
    expect(progressPercent(40)).toBe(40);
    expect(progressPercent('40%')).toBe(40);
    expect(progressPercent(140)).toBe(100);
    expect(progressPercent('almost')).toBeUndefined();
    expect(progressPercent(null)).toBeUndefined();
    expect(progressPercent(undefined)).toBeUndefined();
  });
});
