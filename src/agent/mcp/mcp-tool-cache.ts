import { resolve } from "node:path";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { SingleFlight } from "../../core/async/single-flight.js";
import type { Env } from "../../core/config/env-expansion.js";
import { describeError } from "../../core/errors.js";
import { type Logger, rootLogger } from "../../core/logger.js";
import {
  type ExtensionsConfigText,
  extensionsConfigLocation,
  extensionsConfigVersion,
  parseExtensionsJson,
  readExtensionsConfigText,
} from "./extensions-config-file.js";
import {
  type McpServerConfig,
  type ParsedMcpConfig,
  parseMcpConfig,
  serverFingerprint,
} from "./mcp-server-config.js";
import { type McpServerSession, startMcpServerSession } from "./mcp-server-connection.js";
import { refuseStdioCommand, stdioCommandAllowlist } from "./stdio-command-allowlist.js";

/** A server that failed to start is tried again by the first agent build after this long. */
const RETRY_FAILED_AFTER_MS = 30_000;
/** Sessions replaced by a config change keep serving calls already made through them this long. */
const RETIRE_GRACE_MS = 60_000;

export interface McpToolCacheOptions {
  home: string;
  /** `$VAR` expansion and the stdio allow-list (default process.env). */
  env?: Env;
  cwd?: string;
  logger?: Logger;
}

interface SessionEntry {
  fingerprint: string;
  session: Promise<McpServerSession | null>;
  /** Set once the start failed: when, so the next build after the retry delay tries again. */
  failedAt: number | null;
  settled: McpServerSession | null;
}

/**
 * The MCP tools of one FAWN_HOME, shared by every agent build of the process. Each build
 * re-reads extensions_config.json (one small async read, shared by concurrent builds) and keeps
 * each enabled server's session while that server's entry is unchanged: an edited entry gets a
 * new session, a removed or disabled one is closed. A server that fails to start is skipped with
 * a warning and retried later; the agent runs with the others.
 */
export class McpToolCache {
  private readonly env: Env;
  private readonly logger: Logger;
  private readonly location;
  private readonly reads = new SingleFlight<"read", ExtensionsConfigText | null>();
  private readonly versions = new SingleFlight<"stat", string | null>();
  /** The file version last read (see `extensionsConfigVersion`); undefined: never read. */
  private lastVersion: string | null | undefined;
  private lastText: string | null | undefined;
  private parsed: ParsedMcpConfig = { servers: [], problems: [], warnings: [] };
  private readonly sessions = new Map<string, SessionEntry>();
  /** Replaced sessions waiting out their grace period. */
  private readonly retired = new Map<SessionEntry, NodeJS.Timeout>();
  private closed = false;

  constructor(options: McpToolCacheOptions) {
    this.env = options.env ?? process.env;
    this.logger = (options.logger ?? rootLogger).child({ component: "mcp" });
    this.location = extensionsConfigLocation(options.home, this.env, options.cwd);
  }

  /** The tools of every enabled server that answers, in file order. Never throws. */
  async tools(): Promise<StructuredToolInterface[]> {
    if (this.closed) return [];
    try {
      await this.refreshConfig();
    } catch (error) {
      this.logger.warn({ error: describeError(error) }, "MCP config unreadable; no MCP tools");
      return [];
    }
    const servers = this.parsed.servers.filter((server) => this.startable(server));
    this.retireAllBut(new Set(servers.map((server) => server.name)));
    const sessions = await Promise.all(servers.map((server) => this.sessionFor(server)));
    return sessions.flatMap((session) => session?.tools ?? []);
  }

  /** Drops every session (the next build starts them again), like `POST /api/mcp/cache/reset`. */
  async reset(): Promise<void> {
    this.lastVersion = undefined;
    this.lastText = undefined;
    const entries = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(entries.map((entry) => closeEntry(entry)));
  }

  /** Ends every session now, retiring ones included: no child process outlives this. */
  async close(): Promise<void> {
    this.closed = true;
    const retired = [...this.retired];
    this.retired.clear();
    for (const [, timer] of retired) clearTimeout(timer);
    await Promise.all([this.reset(), ...retired.map(([entry]) => closeEntry(entry))]);
  }

  /** Child pids of the live stdio sessions (diagnostics and tests). */
  livePids(): number[] {
    return [...this.sessions.values()].flatMap((entry) =>
      entry.settled?.pid ? [entry.settled.pid] : [],
    );
  }

  private async refreshConfig(): Promise<void> {
    const version = await this.versions.run("stat", () => extensionsConfigVersion(this.location));
    if (version === this.lastVersion) return;
    const file = await this.reads.run("read", () => readExtensionsConfigText(this.location));
    this.lastVersion = version;
    const text = file?.text ?? null;
    if (text === this.lastText) return;
    this.lastText = text;
    this.parsed = file
      ? parseMcpConfig(parseExtensionsJson(file), this.env)
      : { servers: [], problems: [], warnings: [] };
    for (const warning of this.parsed.warnings) {
      this.logger.warn({ source: file?.path }, `extensions config: ${warning}`);
    }
    for (const problem of this.parsed.problems) {
      this.logger.warn(
        { source: file?.path, mcpServer: problem.server },
        `extensions config: ${problem.message}; this server is skipped`,
      );
    }
    for (const server of this.parsed.servers) {
      const refusal = this.refusal(server);
      if (server.enabled && refusal) this.logger.warn({ mcpServer: server.name }, refusal);
    }
  }

  private startable(server: McpServerConfig): boolean {
    return server.enabled && this.refusal(server) === null;
  }

  private refusal(server: McpServerConfig): string | null {
    if (server.type !== "stdio") return null;
    return refuseStdioCommand(server.name, server.command ?? "", stdioCommandAllowlist(this.env));
  }

  private sessionFor(server: McpServerConfig): Promise<McpServerSession | null> {
    const fingerprint = serverFingerprint(server);
    const entry = this.sessions.get(server.name);
    if (entry && entry.fingerprint === fingerprint && !this.stale(entry)) return entry.session;
    if (entry) this.retire(entry);
    const fresh: SessionEntry = {
      fingerprint,
      failedAt: null,
      settled: null,
      session: startMcpServerSession(server, this.logger).then(
        (session) => {
          fresh.settled = session;
          this.logger.info(
            {
              mcpServer: server.name,
              tools: session.tools.map((tool) => tool.name),
              ...(session.skipped.length > 0 ? { skipped: session.skipped } : {}),
            },
            "MCP server ready",
          );
          // Closed or replaced while it was starting: nobody will close it later.
          if (this.closed || this.sessions.get(server.name) !== fresh) void session.close();
          return session;
        },
        (error: unknown) => {
          fresh.failedAt = Date.now();
          this.logger.warn(
            { mcpServer: server.name, error: describeError(error) },
            "MCP server skipped: it did not start; run `fawn doctor` for details",
          );
          return null;
        },
      ),
    };
    this.sessions.set(server.name, fresh);
    return fresh.session;
  }

  private stale(entry: SessionEntry): boolean {
    if (entry.settled?.broken) return true;
    return entry.failedAt !== null && Date.now() - entry.failedAt >= RETRY_FAILED_AFTER_MS;
  }

  private retireAllBut(keep: ReadonlySet<string>): void {
    for (const [name, entry] of this.sessions) {
      if (!keep.has(name)) this.retire(entry);
    }
  }

  /** Forgets the entry now; closes its session after a grace period for calls in flight. */
  private retire(entry: SessionEntry): void {
    for (const [name, current] of this.sessions) {
      if (current === entry) this.sessions.delete(name);
    }
    const timer = setTimeout(() => {
      this.retired.delete(entry);
      void closeEntry(entry);
    }, RETIRE_GRACE_MS);
    timer.unref();
    this.retired.set(entry, timer);
  }
}

async function closeEntry(entry: SessionEntry): Promise<void> {
  const session = await entry.session;
  await session?.close();
}

const caches = new Map<string, McpToolCache>();

/** The process-wide cache of a FAWN_HOME (created on first use with these options). */
export function mcpToolCacheFor(options: McpToolCacheOptions): McpToolCache {
  const key = resolve(options.home);
  let cache = caches.get(key);
  if (!cache) {
    cache = new McpToolCache(options);
    caches.set(key, cache);
  }
  return cache;
}

/** `POST /api/mcp/cache/reset`: the next agent build reconnects every server. */
export async function resetMcpToolCache(home: string): Promise<void> {
  await caches.get(resolve(home))?.reset();
}

/** Shutdown: ends every MCP session of the home (stdio children exit) and forgets the cache. */
export async function closeMcpToolCache(home: string): Promise<void> {
  const key = resolve(home);
  const cache = caches.get(key);
  if (!cache) return;
  caches.delete(key);
  await cache.close();
}
