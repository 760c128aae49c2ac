import type { Env } from "../../core/config/env-expansion.js";
import { describeError } from "../../core/errors.js";
import type { Logger } from "../../core/logger.js";
import {
  extensionsConfigLocation,
  parseExtensionsJson,
  readExtensionsConfigText,
} from "./extensions-config-file.js";
import { type McpServerConfig, parseMcpConfig } from "./mcp-server-config.js";
import { describeEndpoint, startMcpServerSession } from "./mcp-server-connection.js";
import { refuseStdioCommand, stdioCommandAllowlist } from "./stdio-command-allowlist.js";

export interface McpServerCheck {
  name: string;
  ok: boolean;
  detail: string;
  /** What to do about a failure. */
  hint?: string;
}

export interface McpDiagnosis {
  /** The extensions_config.json read; null when there is none. */
  source: string | null;
  checks: McpServerCheck[];
  warnings: string[];
}

/**
 * `fawn doctor`'s MCP section: starts every enabled server once (as an agent build would),
 * reports its tools or why it failed with a fix, and closes every session it opened.
 */
export async function diagnoseMcpServers(options: {
  home: string;
  env: Env;
  logger: Logger;
}): Promise<McpDiagnosis> {
  const location = extensionsConfigLocation(options.home, options.env);
  let file: Awaited<ReturnType<typeof readExtensionsConfigText>>;
  let raw: unknown;
  try {
    file = await readExtensionsConfigText(location);
    if (!file) return { source: null, checks: [], warnings: [] };
    raw = parseExtensionsJson(file);
  } catch (error) {
    return {
      source: location.candidates[0] ?? null,
      warnings: [],
      checks: [
        {
          name: "extensions config",
          ok: false,
          detail: describeError(error),
          hint: "fix the file (it must be a JSON object with mcpServers); no MCP server starts until then",
        },
      ],
    };
  }
  const parsed = parseMcpConfig(raw, options.env);
  const checks: McpServerCheck[] = parsed.problems.map((problem) => ({
    name: problem.server ?? "extensions config",
    ok: false,
    detail: problem.message,
    hint: "fix the named field; this server is skipped until then",
  }));
  const allowed = stdioCommandAllowlist(options.env);
  const started = await Promise.all(
    parsed.servers.map(async (server): Promise<McpServerCheck> => {
      if (!server.enabled) return { name: server.name, ok: true, detail: "disabled" };
      if (server.type === "stdio") {
        const refusal = refuseStdioCommand(server.name, server.command ?? "", allowed);
        if (refusal) return { name: server.name, ok: false, detail: refusal };
      }
      return checkServer(server, options.logger);
    }),
  );
  return { source: file.path, checks: [...checks, ...started], warnings: parsed.warnings };
}

async function checkServer(server: McpServerConfig, logger: Logger): Promise<McpServerCheck> {
  try {
    const session = await startMcpServerSession(server, logger);
    await session.close();
    const names = session.tools.map((tool) => tool.name);
    const skipped = session.skipped.length > 0 ? `; skipped ${session.skipped.join(", ")}` : "";
    return {
      name: server.name,
      ok: true,
      detail: `${describeEndpoint(server)} — ${names.length} tools: ${names.join(", ") || "(none)"}${skipped}`,
    };
  } catch (error) {
    return {
      name: server.name,
      ok: false,
      detail: describeError(error),
      hint:
        server.type === "stdio"
          ? `run \`${[server.command, ...server.args].join(" ")}\` by hand to see why it exits; raise session_init_timeout if it is only slow (npx may download first)`
          : "check that the url answers MCP (Streamable HTTP, or type: sse for the old transport) and that headers carry valid credentials",
    };
  }
}
