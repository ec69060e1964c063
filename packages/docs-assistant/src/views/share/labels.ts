/** The words of sharing and support: the panel's labels (the host's overrides merged in) over their defaults. */
import type { Labels } from '../../labels/types.js';
import { type ShareDefaults, shareDefaults } from '../../labels/views/share.js';

/** What the panel hands over: its labels, the host's overrides merged in. */
export type PanelLabels = Labels & Required<Pick<Labels, 'contactSupport' | 'close'>>;

export type ShareLabels = PanelLabels & ShareDefaults;

/** The panel's labels over these defaults. */
export const shareLabels = (labels: PanelLabels): ShareLabels =>
  ({ ...shareDefaults, ...labels }) as ShareLabels;
