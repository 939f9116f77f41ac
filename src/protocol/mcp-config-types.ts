// The MCP server configurations as the CLI reads them (`--mcp-config`, `mcp_set_servers`, an agent's
// `mcpServers`, and the `config` of a server's status). The same shapes as the `mcpServers` option, minus
// an in-process server's instance: on the wire it is only a name. Types only.

type StdioServer = { type?: 'stdio'; command: string; args?: string[]; env?: Record<string, string> };
type SseServer = { type: 'sse'; url: string; headers?: Record<string, string> };
type HttpServer = { type: 'http'; url: string; headers?: Record<string, string> };
/** An in-process server of the host, reached over the control channel (`mcp_message`). */
type SdkServer = {
  type: 'sdk';
  name: string;
  timeout?: number;
  tools?: { name: string; [key: string]: unknown }[];
};

/** A server the CLI itself can reach: a process, an SSE or HTTP endpoint, or the host's in-process one. */
export type McpServerConfigForProcessTransport = StdioServer | SseServer | HttpServer | SdkServer;

/** A claude.ai connector proxied by the CLI (only ever in a status, never configured by a host). */
export type McpClaudeAIProxyServerConfig = {
  type: 'claudeai-proxy';
  url: string;
  id: string;
  timeout?: number;
};

export type McpServerStatusConfig = McpServerConfigForProcessTransport | McpClaudeAIProxyServerConfig;

/** An agent's MCP server: the name of one the session has, or a server of its own, by name. */
export type AgentMcpServerSpec = string | Record<string, McpServerConfigForProcessTransport>;
