/**
 * The old import path of the HTTP layer (`http/`), kept for the modules that still import
 * `HttpError` and `BodyAllowance` from here (attachments, storage types, MCP tools, the static
 * export's start request); new code imports `./http/index.js`.
 */
export * from './http/index.js';
