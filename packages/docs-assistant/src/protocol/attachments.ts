/**
 * Attachments (spec §2.2 `experimental_attachments`): which files may be attached and the data
 * URLs they travel in, for the reference service and anyone on `docs-assistant/protocol`. The rules
 * live with the widget's attachments view, so they ship in that lazily loaded chunk only (the panel
 * and the launcher do not carry them); the limits are in `limits.ts`.
 */
export * from '../views/attachments/rules.js';
