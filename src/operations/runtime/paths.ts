/** Where the MCP adapter (mcp/server.ts) listens; named here so operations that describe the service need not import mcp/. */
export const MCP_PATH = '/api/mcp'
