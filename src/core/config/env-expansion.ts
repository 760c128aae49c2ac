import { formatConfigPath } from "./config-path.js";

/** Whole-string `$NAME` or `${NAME}`; a `$` anywhere else is literal (passwords may contain one). */
const ENV_REFERENCE = /^\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})$/;

export type Env = Record<string, string | undefined>;

/**
 * Replaces `$VAR` string values anywhere in a parsed YAML tree with the variable's value.
 * An unset variable is not fatal — a config may list models whose keys this host lacks — so the
 * value becomes absent and a warning names where; validation then decides whether absence is ok.
 */
export function expandEnvReferences(value: unknown, env: Env, warnings: string[]): unknown {
  return expand(value, env, warnings, []);
}

function expand(value: unknown, env: Env, warnings: string[], path: PropertyKey[]): unknown {
  if (typeof value === "string") {
    const match = ENV_REFERENCE.exec(value);
    if (!match) return value;
    const name = match[1] ?? match[2] ?? "";
    const resolved = env[name];
    if (resolved === undefined || resolved === "") {
      warnings.push(`${formatConfigPath(path)}: environment variable ${name} is not set`);
      return undefined;
    }
    return resolved;
  }
  if (Array.isArray(value)) {
    return value.map((item, index) => expand(item, env, warnings, [...path, index]));
  }
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const expanded = expand(item, env, warnings, [...path, key]);
      if (expanded !== undefined) out[key] = expanded;
    }
    return out;
  }
  return value;
}

/** A mapping as YAML or JSON produce it (not an array, Date or class instance). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
