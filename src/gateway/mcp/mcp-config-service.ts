import {
  extensionsConfigLocation,
  parseExtensionsJson,
  readExtensionsConfigText,
  writeExtensionsConfig,
} from "../../agent/mcp/extensions-config-file.js";
import { parseMcpServerEntry } from "../../agent/mcp/mcp-server-config.js";
import {
  refuseStdioCommand,
  stdioCommandAllowlist,
} from "../../agent/mcp/stdio-command-allowlist.js";
import { Mutex } from "../../core/async/mutex.js";
import { type Env, isPlainObject } from "../../core/config/env-expansion.js";
import { BadRequestError, ConfigError, NotFoundError, ValidationError } from "../../core/errors.js";
import { maskServer, restoreMaskedValues } from "./mcp-config-masking.js";

type RawServer = Record<string, unknown>;
/** `{mcp_servers: {<name>: server}}`, the reference's wire shape, secrets masked. */
export interface McpConfigView {
  mcp_servers: Record<string, RawServer>;
}

/**
 * Reads and rewrites the `mcpServers` part of extensions_config.json for the admin API. The
 * file keeps its other keys (`skills`), `$VAR` references stay references, and every write is
 * validated first (each server's fields, the stdio command allow-list) and published
 * atomically. Agent builds notice the new content by themselves: changed servers restart.
 */
export class McpConfigService {
  private readonly location;
  private readonly writes = new Mutex();

  constructor(
    home: string,
    private readonly env: Env = process.env,
  ) {
    this.location = extensionsConfigLocation(home, env);
  }

  async view(): Promise<McpConfigView> {
    return toView((await this.read()).servers);
  }

  /** Replaces every server; masked values of unchanged servers keep their stored secrets. */
  replace(servers: Record<string, unknown>): Promise<McpConfigView> {
    return this.writes.runExclusive(async () => {
      const current = await this.read();
      const next: Record<string, RawServer> = {};
      for (const [name, entry] of Object.entries(servers)) {
        if (!isPlainObject(entry)) {
          throw new ValidationError(`mcp_servers.${name} must be an object.`);
        }
        const restored = restoreMaskedValues(name, withoutNulls(entry), current.servers[name]);
        this.validate(name, restored);
        next[name] = restored;
      }
      await this.write(current, next);
      return toView(next);
    });
  }

  /** Switches one server on or off (404 unknown; 400 when its command may not run here). */
  setEnabled(name: string, enabled: boolean): Promise<McpConfigView> {
    return this.writes.runExclusive(async () => {
      const current = await this.read();
      const entry = current.servers[name];
      if (!entry) {
        throw new NotFoundError(`No MCP server named "${name}" in extensions_config.json.`);
      }
      const next = { ...current.servers, [name]: { ...entry, enabled } };
      if (enabled) this.validate(name, { ...entry, enabled });
      await this.write(current, next);
      return toView(next);
    });
  }

  private validate(name: string, entry: RawServer): void {
    const parsed = parseMcpServerEntry(name, entry, this.env);
    if (!parsed.server) {
      const notes = parsed.warnings.length > 0 ? ` (${parsed.warnings.join("; ")})` : "";
      throw new ValidationError(`Invalid MCP server: ${parsed.error}${notes}`);
    }
    const { server } = parsed;
    if (server.type !== "stdio") return;
    const refusal = refuseStdioCommand(name, server.command ?? "", stdioCommandAllowlist(this.env));
    if (refusal) throw new BadRequestError(refusal);
  }

  private async read(): Promise<{
    path: string;
    document: Record<string, unknown>;
    servers: Record<string, RawServer>;
  }> {
    const file = await readExtensionsConfigText(this.location);
    if (!file) return { path: this.location.defaultPath, document: {}, servers: {} };
    const document = parseExtensionsJson(file);
    if (!isPlainObject(document) || !isPlainObject(document.mcpServers ?? {})) {
      throw new ConfigError(`${file.path}: expected an object with an "mcpServers" object.`);
    }
    const servers = isPlainObject(document.mcpServers) ? document.mcpServers : {};
    return {
      path: file.path,
      document,
      servers: Object.fromEntries(
        Object.entries(servers).map(([name, entry]) => [name, isPlainObject(entry) ? entry : {}]),
      ),
    };
  }

  private async write(
    current: { path: string; document: Record<string, unknown> },
    servers: Record<string, RawServer>,
  ): Promise<void> {
    await writeExtensionsConfig(current.path, { ...current.document, mcpServers: servers });
  }
}

function toView(servers: Record<string, RawServer>): McpConfigView {
  return {
    mcp_servers: Object.fromEntries(
      Object.entries(servers).map(([name, entry]) => [name, maskServer(withDefaults(entry))]),
    ),
  };
}

/** Every field the reference's response model has, with its default when the file omits it. */
function withDefaults(entry: RawServer): RawServer {
  const type = entry.type ?? entry.transport ?? (entry.url && !entry.command ? "http" : "stdio");
  return {
    enabled: entry.enabled ?? true,
    type,
    command: entry.command ?? null,
    args: entry.args ?? [],
    env: entry.env ?? {},
    url: entry.url ?? null,
    headers: entry.headers ?? {},
    description: entry.description ?? "",
    tools: entry.tools ?? null,
    tool_name_prefix: entry.tool_name_prefix ?? null,
    tool_call_timeout: entry.tool_call_timeout ?? null,
    session_init_timeout: entry.session_init_timeout ?? null,
  };
}

/** A GET answer's `null`s mean "not set": they are not stored. */
function withoutNulls(entry: Record<string, unknown>): RawServer {
  return Object.fromEntries(Object.entries(entry).filter(([, value]) => value !== null));
}
