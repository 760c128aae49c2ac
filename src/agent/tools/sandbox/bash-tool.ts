import { z } from "zod";
import { formatCommandOutput, type SandboxProvider } from "../../../sandbox/index.js";
import { defineSandboxTool } from "./define-sandbox-tool.js";
import type { SandboxToolSettings } from "./sandbox-tool-settings.js";

/** Bytes kept of stdout and of stderr each (the reference's local capture bound). */
const CAPTURE_MAX_BYTES = 10 * 1024 * 1024;

const bashSchema = z.object({
  description: z
    .string()
    .describe("Why you are running this command, in a few words. Provide first."),
  command: z
    .string()
    .describe(
      "The bash command. It starts in /mnt/user-data/workspace; use absolute /mnt/user-data/... paths for files.",
    ),
});

/**
 * `bash`: one command in the thread's sandbox, bounded by `sandbox.bash_command_timeout` (the
 * whole process tree is killed) and by the output caps; the text is stdout, then stderr, then the
 * exit code. Cancelling the run kills the command.
 */
export function createBashTool(provider: SandboxProvider, settings: SandboxToolSettings) {
  return defineSandboxTool(provider, {
    name: "bash",
    description:
      "Run a bash command in the thread's sandbox. The working directory is /mnt/user-data/workspace; write deliverables to /mnt/user-data/outputs. Long-running commands are killed at the timeout.",
    schema: bashSchema,
    doingWhat: "running command",
    async run(sandbox, input, config) {
      const result = await sandbox.execute(input.command, {
        timeoutMs: settings.bashTimeoutMs,
        maxOutputBytes: CAPTURE_MAX_BYTES,
        ...(config.signal ? { signal: config.signal } : {}),
      });
      return formatCommandOutput(result, {
        maxChars: settings.bashOutputMaxChars,
        timeoutMs: settings.bashTimeoutMs,
      });
    },
  });
}
