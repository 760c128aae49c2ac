import { dirname } from "node:path";
import { Command } from "commander";
import { diagnoseMcpServers } from "../agent/mcp/mcp-diagnostics.js";
import { listModels } from "../agent/models/list-models.js";
import { BUILTIN_PLUGINS } from "../app/builtin-plugins.js";
import { openStores } from "../app/create-fawn.js";
import { loadConfig } from "../core/config/load-config.js";
import { describeError } from "../core/errors.js";
import { createLogger } from "../core/logger.js";
import { describeExtensions, loadExtensions } from "../extensions/host/index.js";
import { describeSandboxProviders } from "../sandbox/index.js";

type Check = { name: string; ok: boolean; detail: string };

/**
 * Loads `plugins:` as the server would (each plugin's `install` runs) and describes every entry;
 * a failed entry is a failed check. Runtime failures of a running server are at GET /api/extensions.
 */
async function checkPlugins(
  config: Parameters<typeof loadExtensions>[0]["entries"],
  baseDir: string,
): Promise<{ check: Check | null; lines: string[] }> {
  if (config.length === 0) return { check: null, lines: ["plugins: none configured"] };
  try {
    const extensions = await loadExtensions({
      entries: config,
      builtins: BUILTIN_PLUGINS,
      baseDir,
    });
    const failed = extensions.entries.filter((entry) => entry.status === "failed").length;
    return {
      check: {
        name: "plugins",
        ok: failed === 0,
        detail: `${extensions.plugins.length} loaded, ${failed} failed`,
      },
      lines: describeExtensions(extensions),
    };
  } catch (error) {
    return { check: { name: "plugins", ok: false, detail: describeError(error) }, lines: [] };
  }
}

/** Hide credentials in a connection URL before it is printed. */
function redactUrl(url: string): string {
  return url.replace(/\/\/([^:@/]+):([^@/]+)@/, "//$1:***@");
}

async function checkDatabase(url: string, home: string): Promise<Check> {
  try {
    const stores = await openStores(url, home);
    await stores.runs.get("doctor-probe");
    await stores.close();
    return { name: "database", ok: true, detail: `${redactUrl(url)} (migrated, reachable)` };
  } catch (error) {
    return { name: "database", ok: false, detail: `${redactUrl(url)}: ${describeError(error)}` };
  }
}

async function checkRedis(url: string | undefined): Promise<Check> {
  if (!url)
    return {
      name: "stream bridge",
      ok: true,
      detail: "in-memory (single process; set FAWN_REDIS_URL to share runs across processes)",
    };
  const { Redis } = await import("ioredis");
  const client = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    connectTimeout: 3000,
  });
  try {
    await client.connect();
    await client.ping();
    return { name: "stream bridge", ok: true, detail: `Redis at ${redactUrl(url)}` };
  } catch (error) {
    return {
      name: "stream bridge",
      ok: false,
      detail: `Redis at ${redactUrl(url)}: ${describeError(error)}`,
    };
  } finally {
    client.disconnect();
  }
}

/** `fawn doctor`: what this host and configuration give you, and what to fix. */
export function doctorCommand(): Command {
  return new Command("doctor")
    .description(
      "Check the configuration, database, stream bridge, sandbox providers, MCP servers and models.",
    )
    .action(async () => {
      const { config, warnings, source } = await loadConfig();
      const lines: string[] = [`config: ${source ?? "defaults (no config.yaml found)"}`];
      for (const warning of warnings) lines.push(`  warning: ${warning}`);
      const checks = await Promise.all([
        checkDatabase(config.database.url, config.home),
        checkRedis(config.stream_bridge.redis_url),
      ]);
      const sandbox = await describeSandboxProviders(config.sandbox);
      checks.push({
        name: "sandbox",
        ok: sandbox.active !== null,
        detail: sandbox.summary.replace(/^sandbox:\s*/, ""),
      });
      for (const provider of sandbox.providers) {
        lines.push(
          `  sandbox ${provider.kind}: ${provider.available ? "works" : "unavailable"} — ${provider.detail}`,
        );
      }
      if (sandbox.hint) lines.push(`  hint: ${sandbox.hint}`);
      const mcp = await diagnoseMcpServers({
        home: config.home,
        env: process.env,
        logger: createLogger({ level: "silent" }),
      });
      lines.push(`mcp: ${mcp.source ?? "no extensions_config.json (no MCP servers)"}`);
      for (const warning of mcp.warnings) lines.push(`  warning: ${warning}`);
      for (const server of mcp.checks) {
        checks.push({ name: `mcp ${server.name}`, ok: server.ok, detail: server.detail });
        if (server.hint) lines.push(`  hint (mcp ${server.name}): ${server.hint}`);
      }
      const plugins = await checkPlugins(config.plugins, source ? dirname(source) : process.cwd());
      if (plugins.check) checks.push(plugins.check);
      lines.push(...plugins.lines);
      for (const model of listModels(config)) {
        const label = model.offline_demo ? "offline demo" : model.provider;
        lines.push(`model ${model.name}: ${label}${model.is_default ? " (default)" : ""}`);
      }
      for (const check of checks)
        lines.unshift(`${check.ok ? "ok  " : "FAIL"} ${check.name}: ${check.detail}`);
      process.stdout.write(`${lines.join("\n")}\n`);
      if (checks.some((check) => !check.ok)) process.exitCode = 1;
    });
}
