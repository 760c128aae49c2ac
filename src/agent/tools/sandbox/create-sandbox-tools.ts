import type { StructuredToolInterface } from "@langchain/core/tools";
import type { FawnPaths } from "../../../core/paths.js";
import type { SandboxProvider } from "../../../sandbox/index.js";
import { createPresentFilesTool } from "../present-files.js";
import { createBashTool } from "./bash-tool.js";
import { createGlobTool } from "./glob-tool.js";
import { createGrepTool } from "./grep-tool.js";
import { createLsTool } from "./ls-tool.js";
import { createReadFileTool } from "./read-file-tool.js";
import {
  DEFAULT_SANDBOX_TOOL_SETTINGS,
  type SandboxToolSettings,
} from "./sandbox-tool-settings.js";
import { createStrReplaceTool } from "./str-replace-tool.js";
import { createSandboxWriteFileTool } from "./write-file-tool.js";

export interface SandboxToolsOptions {
  provider: SandboxProvider;
  /** Default: the reference's limits (see `sandboxToolSettingsOf` for config.yaml). */
  settings?: SandboxToolSettings;
}

/**
 * The lead agent's tools when a sandbox provider is configured: the reference's sandbox tools,
 * in its order, plus `present_files` (which reads the thread's outputs folder
 * on the host, the same folder every provider mounts at /mnt/user-data/outputs).
 */
export function createSandboxTools(
  options: SandboxToolsOptions & { paths: FawnPaths },
): StructuredToolInterface[] {
  const { provider } = options;
  const settings = options.settings ?? DEFAULT_SANDBOX_TOOL_SETTINGS;
  return [
    createBashTool(provider, settings),
    createLsTool(provider, settings),
    createReadFileTool(provider, settings),
    createSandboxWriteFileTool(provider, settings),
    createStrReplaceTool(provider),
    createGlobTool(provider, settings),
    createGrepTool(provider, settings),
    createPresentFilesTool({ paths: options.paths }),
  ];
}
