/**
 * The shell's frame (`ShellFrame`): what the panel uses of the launcher's modules, handed to it by
 * the shell (`docs-assistant.tsx`) rather than imported by it (see `ShellFrame` in panel-types.ts).
 */
import { errorEvent } from '../events/emit.js';
import { withLabels } from '../labels/merge.js';
import { shellLabels } from '../labels/shell.js';
import { visuallyHidden } from './dom.js';
import { Boundary, reportWidgetError } from './error-boundary.js';
import { CLOSE, Icon } from './icons.js';
import { PanelHeader } from './panel-header.js';
import type { ShellFrame } from './panel-types.js';

export const shellFrame: ShellFrame = {
  Boundary,
  reportWidgetError,
  Header: PanelHeader,
  Icon,
  close: CLOSE,
  visuallyHidden,
  errorEvent,
  withLabels,
  shellLabels,
};
