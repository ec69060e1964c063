/**
 * The assistant's own checks, error mapping and sentences for the search (`SearchKit`). The panel
 * hands this to its lazily loaded search view, so the view's chunk imports none of them.
 */
import { checkConfig } from '../chat/config.js';
import { httpError } from '../chat/errors.js';
import { panelLabels } from '../labels/panel.js';
import type { SearchKit } from './core.js';
import { searchAvailable } from './features.js';

export const defaultSearchKit: SearchKit = {
  available: searchAvailable,
  checkConfig,
  httpError,
  networkMessage: panelLabels.errorNetwork,
  configMessage: panelLabels.errorConfig,
};
