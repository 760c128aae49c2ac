import type { FawnConfig } from "../../../core/config/schema.js";

/** What the sandbox tools read from config.yaml. */
export interface SandboxToolSettings {
  /** `sandbox.bash_command_timeout` (seconds) in ms; the whole process tree dies at expiry. */
  bashTimeoutMs: number;
  /** Middle truncation of the bash result; 0 disables. */
  bashOutputMaxChars: number;
  /** Head truncation of read_file; 0 disables. */
  readFileOutputMaxChars: number;
  /** Head truncation of ls; 0 disables. */
  lsOutputMaxChars: number;
  /** `tools[name=glob].max_results`: the operator's ceiling (≤ 0 or missing: the default). */
  globMaxResults?: number;
  /** `tools[name=grep].max_results`. */
  grepMaxResults?: number;
  /**
   * Largest non-append write_file in bytes; ≤ 0 disables. Unset: `FAWN_WRITE_FILE_MAX_BYTES`
   * (read on every call, so an operator can change it without a restart), else 80 KiB.
   */
  writeFileMaxBytes?: number;
}

export const DEFAULT_SANDBOX_TOOL_SETTINGS: SandboxToolSettings = {
  bashTimeoutMs: 600_000,
  bashOutputMaxChars: 20_000,
  readFileOutputMaxChars: 50_000,
  lsOutputMaxChars: 20_000,
};

/** The settings of `sandbox:` and of the `tools:` entries named glob and grep. */
export function sandboxToolSettingsOf(
  config: Pick<FawnConfig, "sandbox" | "tools">,
): SandboxToolSettings {
  const { sandbox } = config;
  const globMaxResults = configuredMaxResults(config.tools, "glob");
  const grepMaxResults = configuredMaxResults(config.tools, "grep");
  return {
    bashTimeoutMs: sandbox.bash_command_timeout * 1000,
    bashOutputMaxChars: sandbox.bash_output_max_chars,
    readFileOutputMaxChars: sandbox.read_file_output_max_chars,
    lsOutputMaxChars: sandbox.ls_output_max_chars,
    ...(globMaxResults !== undefined ? { globMaxResults } : {}),
    ...(grepMaxResults !== undefined ? { grepMaxResults } : {}),
  };
}

function configuredMaxResults(tools: FawnConfig["tools"], name: string): number | undefined {
  const value = tools.find((entry) => entry.name === name)?.max_results;
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}
