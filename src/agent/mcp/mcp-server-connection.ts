import type { DynamicStructuredTool, StructuredToolInterface } from "@langchain/core/tools";
import { loadMcpTools } from "@langchain/mcp-adapters";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { withDeadline } from "../../core/async/deadline.js";
import { describeError } from "../../core/errors.js";
import type { Logger } from "../../core/logger.js";
import { type McpServerConfig, TOOL_NAME } from "./mcp-server-config.js";

const CLIENT_INFO = { name: "fawn", version: "0.1.0" };
/** Stderr lines kept per stdio server, quoted when it fails to start. */
const STDERR_TAIL_LINES = 20;

/** A started MCP server and the LangChain tools over its session. */
export interface McpServerSession {
  server: McpServerConfig;
  tools: StructuredToolInterface[];
  /** Server tools left out (allow-list, bad names), for logs and `fawn doctor`. */
  skipped: string[];
  /** The child process of a stdio server (null for HTTP, or once it exited). */
  readonly pid: number | null;
  /** True once the session ended on its own (child exited, stream closed). */
  readonly broken: boolean;
  /** Ends the session; a stdio child gets stdin closed, then SIGTERM, then SIGKILL. */
  close(): Promise<void>;
}

export class McpServerStartError extends Error {
  constructor(
    readonly server: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "McpServerStartError";
  }
}

/**
 * Starts one server and lists its tools within `session_init_timeout`. Past the deadline, or on
 * any failure, the transport is closed here (a stdio child is killed), so a server that never
 * answers leaves no process behind. Tool names get the server's prefix, the `tools` allow-list
 * applies, and every call carries the server's `tool_call_timeout` (the MCP SDK then cancels the
 * request on the server and the call fails with an error the tool-error middleware reports).
 */
export async function startMcpServerSession(
  server: McpServerConfig,
  logger: Logger,
): Promise<McpServerSession> {
  const stderrTail: string[] = [];
  const transport = createTransport(server, stderrTail, logger);
  const client = new Client(CLIENT_INFO);
  let closing = false;
  let broken = false;
  client.onclose = () => {
    if (closing) return;
    broken = true;
    logger.warn({ mcpServer: server.name }, "MCP server session ended; it restarts on next use");
  };
  const close = async (): Promise<void> => {
    closing = true;
    await client.close().catch(() => undefined);
    await transport.close().catch(() => undefined);
  };
  try {
    const loaded = await withDeadline(
      async () => {
        await client.connect(transport, { timeout: server.sessionInitTimeoutMs });
        return loadMcpTools(server.name, client, {
          throwOnLoadError: false,
          prefixToolNameWithServerName: false,
          additionalToolNamePrefix: "",
          useStandardContentBlocks: false,
        });
      },
      server.sessionInitTimeoutMs,
      `did not answer within ${server.sessionInitTimeoutMs / 1000} s (session_init_timeout)`,
    );
    const { tools, skipped } = selectTools(server, loaded);
    return {
      server,
      tools,
      skipped,
      get pid() {
        return transport instanceof StdioClientTransport && !broken ? transport.pid : null;
      },
      get broken() {
        return broken;
      },
      close,
    };
  } catch (error) {
    await close();
    const tail = stderrTail.length > 0 ? ` (stderr: ${stderrTail.join(" | ")})` : "";
    throw new McpServerStartError(
      server.name,
      `MCP server "${server.name}" (${describeEndpoint(server)}) failed to start: ${describeError(error)}${tail}`,
      { cause: error },
    );
  }
}

/** What a log line or error may say about where a server is: never env, headers or a password. */
export function describeEndpoint(server: McpServerConfig): string {
  if (server.type === "stdio") return `stdio: ${server.command ?? ""}`;
  return `${server.type}: ${redactUrl(server.url ?? "")}`;
}

function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    parsed.search = parsed.search ? "?…" : "";
    return parsed.toString();
  } catch {
    return "(invalid url)";
  }
}

function createTransport(server: McpServerConfig, stderrTail: string[], logger: Logger): Transport {
  if (server.type === "stdio") {
    const transport = new StdioClientTransport({
      command: server.command ?? "",
      args: server.args,
      // The SDK adds only PATH, HOME and a few safe variables: Fawn's own keys stay out.
      env: server.env,
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) => {
      for (const line of chunk.toString("utf8").split("\n")) {
        const trimmed = line.trim().slice(0, 300);
        if (!trimmed) continue;
        stderrTail.push(trimmed);
        if (stderrTail.length > STDERR_TAIL_LINES) stderrTail.shift();
        logger.debug({ mcpServer: server.name, stderr: trimmed }, "MCP server stderr");
      }
    });
    return transport;
  }
  const url = new URL(server.url ?? "");
  const headers = server.headers;
  // The SDK sends `requestInit.headers` on the SSE stream's GET and on every POST.
  if (server.type === "sse") return new SSEClientTransport(url, { requestInit: { headers } });
  return new StreamableHTTPClientTransport(url, { requestInit: { headers } });
}

function selectTools(
  server: McpServerConfig,
  loaded: readonly DynamicStructuredTool[],
): { tools: StructuredToolInterface[]; skipped: string[] } {
  const allowed = server.tools === null ? null : new Set(server.tools);
  const tools: StructuredToolInterface[] = [];
  const skipped: string[] = [];
  for (const tool of loaded) {
    if (allowed && !allowed.has(tool.name)) {
      skipped.push(`${tool.name} (not in tools)`);
      continue;
    }
    const name = `${server.toolNamePrefix}${tool.name}`;
    if (!TOOL_NAME.test(name)) {
      skipped.push(`${name} (not a valid tool name: letters, digits, _ and -, at most 64)`);
      continue;
    }
    tool.name = name;
    // Read by the adapter for every call and handed to the SDK as the request timeout.
    tool.defaultConfig = { metadata: { timeoutMs: server.toolCallTimeoutMs } };
    tools.push(tool);
  }
  return { tools, skipped };
}
