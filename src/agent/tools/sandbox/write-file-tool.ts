import { z } from "zod";
import type { SandboxProvider } from "../../../sandbox/index.js";
import { defineSandboxTool } from "./define-sandbox-tool.js";
import type { SandboxToolSettings } from "./sandbox-tool-settings.js";
import { describeWriteFailure } from "./tool-failure.js";

/** One whole-file write at most this big; larger files are built with `append` (reference: 80 KiB). */
export const WRITE_FILE_MAX_BYTES = 80 * 1024;
export const WRITE_FILE_MAX_BYTES_ENV = "FAWN_WRITE_FILE_MAX_BYTES";

const writeFileSchema = z.object({
  description: z.string().describe("Why you are writing this file, in a few words. Provide first."),
  path: z
    .string()
    .describe(
      "Absolute virtual path, e.g. /mnt/user-data/outputs/report.md or /mnt/user-data/workspace/notes.txt.",
    ),
  content: z.string().describe("The text to write."),
  append: z.boolean().default(false).describe("Append to the file instead of replacing it."),
});

/**
 * `write_file` in the thread's sandbox: parents are created, a whole-file write is published
 * atomically (a reader never sees half a file) and writes to one file are serialized by the
 * sandbox. A non-append write over the size cap is refused with advice to build the file in parts.
 */
export function createSandboxWriteFileTool(
  provider: SandboxProvider,
  settings: SandboxToolSettings,
) {
  return defineSandboxTool(provider, {
    name: "write_file",
    description:
      "Write a text file in the thread's sandbox. Deliverables go under /mnt/user-data/outputs, scratch files under /mnt/user-data/workspace. Parent folders are created.",
    schema: writeFileSchema,
    doingWhat: "writing file",
    async run(sandbox, input) {
      const maxBytes = writeFileMaxBytes(settings);
      const size = Buffer.byteLength(input.content, "utf8");
      if (!input.append && maxBytes > 0 && size > maxBytes) {
        return (
          `Error: Content too large for one write_file call (${size} bytes; the limit is ${maxBytes}). ` +
          "Write a first section, then add the rest with append=true or str_replace."
        );
      }
      await sandbox.writeFile(input.path, input.content, { append: input.append });
      return "OK";
    },
    describeFailure: (error, input, sandbox) => describeWriteFailure(error, input.path, sandbox),
  });
}

/** Settings first; else the environment, read per call so a change applies without a restart. */
function writeFileMaxBytes(settings: SandboxToolSettings): number {
  if (settings.writeFileMaxBytes !== undefined) return settings.writeFileMaxBytes;
  const raw = process.env[WRITE_FILE_MAX_BYTES_ENV]?.trim();
  const parsed = raw ? Number(raw) : Number.NaN;
  return Number.isFinite(parsed) ? Math.floor(parsed) : WRITE_FILE_MAX_BYTES;
}
