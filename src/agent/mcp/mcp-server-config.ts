import { z } from "zod";
import { formatConfigPath } from "../../core/config/config-path.js";
import { type Env, expandEnvReferences, isPlainObject } from "../../core/config/env-expansion.js";

/** Transports of `mcpServers.<name>.type`, as in the reference's extensions_config.json. */
export const MCP_TRANSPORTS = ["stdio", "sse", "http"] as const;
export type McpTransport = (typeof MCP_TRANSPORTS)[number];

/** Server names become log fields and tool-name prefixes: keep them plain. */
export const MCP_SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
/** What model providers accept as a tool name (OpenAI and Anthropic share this rule). */
export const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export const DEFAULT_TOOL_CALL_TIMEOUT_SECONDS = 120;
export const DEFAULT_SESSION_INIT_TIMEOUT_SECONDS = 30;

/** Reference keys Fawn reads but does not act on; they are dropped with a warning. */
const IGNORED_REFERENCE_KEYS = ["oauth", "routing", "task_toolsets"] as const;

const stringMap = z.record(z.string(), z.string());

/**
 * One `mcpServers` entry. The transport may be left out: a `url` means `http`, else `stdio`
 * (the reference defaults to `stdio`; inferring keeps a url-only entry from failing).
 */
export const mcpServerEntrySchema = z
  .object({
    enabled: z.boolean().default(true),
    type: z.enum(MCP_TRANSPORTS).optional(),
    /** Accepted as an alias of `type` (other MCP clients' files use it). */
    transport: z.enum(MCP_TRANSPORTS).optional(),
    command: z.string().min(1).optional(),
    args: z.array(z.string()).default([]),
    env: stringMap.default({}),
    url: z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }).optional(),
    headers: stringMap.default({}),
    description: z.string().default(""),
    /** Allow-list of the server's tool names (before the prefix); unset = every tool. */
    tools: z.array(z.string().min(1)).nullish(),
    /** Prepended to every tool name; `true` means `<server name>_`. */
    tool_name_prefix: z
      .union([
        z.boolean(),
        z.string().regex(/^[A-Za-z0-9_-]*$/, "may hold only letters, digits, _ and -"),
      ])
      .nullish(),
    tool_call_timeout: z.number().positive().nullish(),
    session_init_timeout: z.number().positive().nullish(),
  })
  .superRefine((entry, ctx) => {
    const type = entry.type ?? entry.transport ?? (entry.url && !entry.command ? "http" : "stdio");
    if (type === "stdio" && !entry.command) {
      ctx.addIssue({
        code: "custom",
        path: ["command"],
        message: "a stdio server needs a command",
      });
    }
    if (type !== "stdio" && !entry.url) {
      ctx.addIssue({ code: "custom", path: ["url"], message: `an ${type} server needs a url` });
    }
  });

type McpServerEntry = z.output<typeof mcpServerEntrySchema>;

/** A validated, env-expanded server of extensions_config.json, in the form the loader uses. */
export interface McpServerConfig {
  name: string;
  enabled: boolean;
  type: McpTransport;
  command: string | null;
  args: string[];
  env: Record<string, string>;
  url: string | null;
  headers: Record<string, string>;
  description: string;
  /** Server-side tool names to keep; null = all. */
  tools: string[] | null;
  toolNamePrefix: string;
  toolCallTimeoutMs: number;
  sessionInitTimeoutMs: number;
}

/** A server entry that could not be used, and why (names the server and field). */
export interface McpConfigProblem {
  server: string | null;
  message: string;
}

export interface ParsedMcpConfig {
  /** Every valid entry, enabled or not, in file order. */
  servers: McpServerConfig[];
  /** Entries skipped as invalid (the rest still load). */
  problems: McpConfigProblem[];
  /** Unset `$VARS`, ignored keys. */
  warnings: string[];
}

/**
 * Reads the `mcpServers` part of a parsed extensions_config.json. Each entry is expanded
 * (`$VAR` strings from `env`, like config.yaml) and validated on its own, so one bad entry is
 * reported by name and skipped while the others load. Other top-level keys (`skills`) are not
 * Fawn's business here and are left alone.
 */
export function parseMcpConfig(raw: unknown, env: Env): ParsedMcpConfig {
  const result: ParsedMcpConfig = { servers: [], problems: [], warnings: [] };
  if (!isPlainObject(raw)) {
    result.problems.push({ server: null, message: "the top level must be a JSON object" });
    return result;
  }
  const servers = raw.mcpServers ?? {};
  if (!isPlainObject(servers)) {
    result.problems.push({ server: null, message: "mcpServers must be an object of servers" });
    return result;
  }
  for (const [name, entry] of Object.entries(servers)) {
    const parsed = parseMcpServerEntry(name, entry, env);
    result.warnings.push(...parsed.warnings);
    if (parsed.server) result.servers.push(parsed.server);
    else result.problems.push({ server: name, message: parsed.error });
  }
  return result;
}

type EntryResult =
  | { server: McpServerConfig; warnings: string[] }
  | { server: null; error: string; warnings: string[] };

/** Validates one entry; the error names `mcpServers.<name>.<field>`. */
export function parseMcpServerEntry(name: string, entry: unknown, env: Env): EntryResult {
  const where = ["mcpServers", name];
  const warnings: string[] = [];
  if (!MCP_SERVER_NAME.test(name)) {
    return {
      server: null,
      warnings,
      error: `${formatConfigPath(where)}: a server name is 1-64 letters, digits, _ . - (starting with a letter or digit)`,
    };
  }
  const expanded = expandEnvReferences(entry, env, warnings);
  const prefixed = warnings.map((warning) => `${formatConfigPath(where)}.${warning}`);
  if (isPlainObject(expanded)) {
    for (const key of IGNORED_REFERENCE_KEYS) {
      if (key in expanded) {
        prefixed.push(`${formatConfigPath([...where, key])}: not supported by Fawn, ignored`);
      }
    }
  }
  const parsed = mcpServerEntrySchema.safeParse(expanded);
  if (!parsed.success) {
    const detail = parsed.error.issues
      .map((issue) => `${formatConfigPath([...where, ...issue.path])}: ${issue.message}`)
      .join("; ");
    return { server: null, warnings: prefixed, error: detail };
  }
  return { server: toServerConfig(name, parsed.data), warnings: prefixed };
}

function toServerConfig(name: string, entry: McpServerEntry): McpServerConfig {
  const type = entry.type ?? entry.transport ?? (entry.url && !entry.command ? "http" : "stdio");
  const prefix = entry.tool_name_prefix;
  return {
    name,
    enabled: entry.enabled,
    type,
    command: type === "stdio" ? (entry.command ?? null) : null,
    args: entry.args,
    env: entry.env,
    url: type === "stdio" ? null : (entry.url ?? null),
    headers: entry.headers,
    description: entry.description,
    tools: entry.tools ?? null,
    toolNamePrefix: prefix === true ? `${name.replace(/[^A-Za-z0-9_-]/g, "_")}_` : prefix || "",
    toolCallTimeoutMs: (entry.tool_call_timeout ?? DEFAULT_TOOL_CALL_TIMEOUT_SECONDS) * 1000,
    sessionInitTimeoutMs:
      (entry.session_init_timeout ?? DEFAULT_SESSION_INIT_TIMEOUT_SECONDS) * 1000,
  };
}

/** What identifies a server's connection: a change in any of these needs a new one. */
export function serverFingerprint(server: McpServerConfig): string {
  return JSON.stringify(server);
}
