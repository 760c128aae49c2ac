import { diagnoseMcpServers } from "../../agent/mcp/mcp-diagnostics.js";
import { BUILTIN_PLUGINS } from "../../app/builtin-plugins.js";
import type { Env } from "../../core/config/env-expansion.js";
import type { FawnConfig } from "../../core/config/schema.js";
import { describeError } from "../../core/errors.js";
import { createLogger } from "../../core/logger.js";
import { describeExtensions, loadExtensions } from "../../extensions/host/index.js";
import type { DoctorItem, DoctorSection } from "./doctor-report.js";

/** Starts every enabled MCP server of extensions_config.json once and lists its tools. */
export async function mcpSection(
  config: Pick<FawnConfig, "home">,
  env: Env,
): Promise<DoctorSection> {
  const mcp = await diagnoseMcpServers({
    home: config.home,
    env,
    logger: createLogger({ level: "silent" }),
  });
  return {
    title: "mcp servers",
    empty: mcp.source ? "none enabled" : "no extensions_config.json (no MCP servers)",
    items: mcp.checks.map((server) => {
      const item: DoctorItem = {
        status: server.ok ? "ok" : "fail",
        name: server.name,
        detail: server.detail,
      };
      if (server.hint) item.hint = server.hint;
      return item;
    }),
    notes: [
      ...(mcp.source ? [`from ${mcp.source}`] : []),
      ...mcp.warnings.map((warning) => `warning: ${warning}`),
    ],
  };
}

/**
 * Loads `plugins:` as the server would (each plugin's `install` runs) and describes every entry;
 * a failed entry is an error. Failures of a running server are at GET /api/extensions.
 */
export async function pluginSection(
  config: Pick<FawnConfig, "plugins">,
  baseDir: string,
): Promise<DoctorSection> {
  const section: DoctorSection = { title: "plugins", empty: "none configured", items: [] };
  if (config.plugins.length === 0) return section;
  try {
    const extensions = await loadExtensions({
      entries: config.plugins,
      builtins: BUILTIN_PLUGINS,
      baseDir,
    });
    section.items = extensions.entries.map((entry): DoctorItem => {
      if (entry.status === "failed") {
        return {
          status: "fail",
          name: entry.label,
          detail: `failed (${entry.diagnostic.stage}): ${entry.diagnostic.message}`,
          hint: "fix the entry's use/config, or set enabled: false",
        };
      }
      return {
        status: "ok",
        name: entry.label,
        detail: entry.status === "disabled" ? "disabled (enabled: false)" : "loaded",
      };
    });
    section.notes = describeExtensions(extensions);
  } catch (error) {
    section.items = [{ status: "fail", name: "plugins", detail: describeError(error) }];
  }
  return section;
}
