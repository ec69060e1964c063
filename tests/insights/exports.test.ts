import { readFileSync } from 'node:fs';
import * as insights from '../../packages/docs-assistant/src/insights';
import * as insightsReact from '../../packages/docs-assistant/src/insights/react';

describe('public API of docs-assistant/insights', () => {
  it('exposes the handler and its routes (the answer shapes are types only)', () => {
    expect(Object.keys(insights).sort()).toEqual(['INSIGHTS_ROUTES', 'createInsightsHandler']);
  });

  it('exposes the panel from docs-assistant/insights/react, a "use client" entry', () => {
    expect(Object.keys(insightsReact).sort()).toEqual(['InsightsPanel', 'defaultInsightsLabels']);
    const source = readFileSync(
      new URL('../../packages/docs-assistant/src/insights/react.ts', import.meta.url),
      'utf8',
    );
    expect(source.startsWith("'use client';")).toBe(true);
  });

  it('is listed in the package exports with its types', () => {
    const manifest = JSON.parse(
      readFileSync(new URL('../../packages/docs-assistant/package.json', import.meta.url), 'utf8'),
    ) as { exports: Record<string, unknown> };
    expect(manifest.exports['./insights']).toEqual({
      types: './dist/types/insights/index.d.ts',
      import: './dist/insights.js',
    });
    expect(manifest.exports['./insights/react']).toEqual({
      types: './dist/types/insights/react.d.ts',
      import: './dist/insights-react.js',
    });
  });
});
