import { isAbsolute } from "node:path";

export interface TeamsConfig {
  enabled: boolean;
  /** An absolute SQLite file of the plugin's own; null → the host database. */
  storagePath: string | null;
  /** How long the service lease lives without renewal; null → `teamsSettings.leaseSeconds`. */
  leaseSeconds: number | null;
}

const KEYS = new Set(["enabled", "storage_path", "lease_seconds"]);

/**
 * The plugin's `config` from its `plugins:` entry:
 * `{enabled: bool, storage_path?: abs path, lease_seconds?: number > 0}`.
 */
export function parseConfig(config: Readonly<Record<string, unknown>>): TeamsConfig {
  for (const name of Object.keys(config)) {
    if (!KEYS.has(name)) throw new Error(`agent-teams config: unknown field "${name}".`);
  }
  const enabled = config.enabled ?? false;
  if (typeof enabled !== "boolean")
    throw new Error("agent-teams config: enabled must be a boolean.");
  const path = config.storage_path ?? null;
  if (path !== null && (typeof path !== "string" || !isAbsolute(path))) {
    throw new Error("agent-teams config: storage_path must be an absolute path.");
  }
  const lease = config.lease_seconds ?? null;
  if (lease !== null && (typeof lease !== "number" || !Number.isFinite(lease) || lease <= 0)) {
    throw new Error("agent-teams config: lease_seconds must be a positive number.");
  }
  return { enabled, storagePath: path, leaseSeconds: lease };
}
