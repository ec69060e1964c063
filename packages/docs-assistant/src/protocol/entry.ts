/**
 * `docs-assistant/protocol`: the wire contract of the spec (request and error schemas, key kinds,
 * limits, paths, stream part codes, static export shapes) for code that is not the widget, such as
 * the reference service (`docs-assistant-server`). No React, no browser API.
 */
export * from './index.js';
export * from './static-export.js';
