import * as staticExport from '../../packages/docs-assistant/src/static-export';
import * as staticExportReact from '../../packages/docs-assistant/src/static-export/react';

describe('public API of docs-assistant/static-export', () => {
  it('exposes the client, the handler, the error class and the schemas', () => {
    expect(Object.keys(staticExport).sort()).toEqual([
      'STATIC_EXPORT_STATUSES',
      'StaticExportBundleSchema',
      'StaticExportError',
      'StaticExportJobSchema',
      'StaticExportStartedJobSchema',
      'bundleExpiryTime',
      'createStaticExportClient',
      'createStaticExportHandler',
      'isTerminalStatus',
      'progressPercent',
    ]);
  });

  it('exposes the panel from docs-assistant/static-export/react', () => {
    expect(Object.keys(staticExportReact).sort()).toEqual(['StaticExportPanel', 'defaultStaticExportLabels']);
  });
});
