'use client';
/**
 * `docs-assistant/static-export/react`: the dashboard panel. It talks to the host's backend route
 * (`createStaticExportHandler` from `docs-assistant/static-export`), never with an admin key.
 */
export {
  defaultStaticExportLabels,
  StaticExportPanel,
  type StaticExportPanelLabels,
  type StaticExportPanelProps,
} from './panel.js';
