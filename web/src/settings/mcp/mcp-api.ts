import { apiJson } from "../../api/http.js";

/** `/mcp/*` as this panel calls it (docs/API.md, MCP (admin)); secrets come back as `***`. */
export type McpTransport = "stdio" | "sse" | "http";

export interface McpServer {
  enabled: boolean;
  type: McpTransport;
  command: string | null;
  args: string[];
  env: Record<string, string>;
  url: string | null;
  headers: Record<string, string>;
  description: string | null;
  tools: string[] | null;
  tool_name_prefix: string | null;
  tool_call_timeout: number | null;
  session_init_timeout: number | null;
}

export type McpServers = Record<string, McpServer>;

const JSON_HEADERS = { "content-type": "application/json" };

export async function readMcpServers(): Promise<McpServers> {
  return (await apiJson<{ mcp_servers: McpServers }>("/mcp/config")).mcp_servers;
}

/** Replaces every server: send the whole map, `***` values unchanged to keep stored secrets. */
export async function saveMcpServers(servers: McpServers): Promise<McpServers> {
  const answer = await apiJson<{ mcp_servers: McpServers }>("/mcp/config", {
    method: "PUT",
    headers: JSON_HEADERS,
    body: JSON.stringify({ mcp_servers: servers }),
  });
  return answer.mcp_servers;
}

export async function switchMcpServer(name: string, enabled: boolean): Promise<McpServers> {
  const answer = await apiJson<{ mcp_servers: McpServers }>("/mcp/config", {
    method: "PATCH",
    headers: JSON_HEADERS,
    body: JSON.stringify({ server_name: name, enabled }),
  });
  return answer.mcp_servers;
}

export async function resetMcpSessions(): Promise<void> {
  await apiJson("/mcp/cache/reset", { method: "POST" });
}
