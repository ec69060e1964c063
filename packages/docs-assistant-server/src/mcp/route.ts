/** Where the MCP endpoint lives; without Node built-ins, for `app.ts`. */

export const MCP_ROUTE = '/mcp';

/** Whether a request path is the MCP endpoint's (it sets its own CORS headers). */
export const isMcpPath = (path: string): boolean => path === MCP_ROUTE || path.startsWith(`${MCP_ROUTE}/`);
