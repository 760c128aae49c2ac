import { z } from "zod";
import type { SandboxProvider } from "../../../sandbox/index.js";
import { defineSandboxTool } from "./define-sandbox-tool.js";
import { describeWriteFailure } from "./tool-failure.js";

const strReplaceSchema = z.object({
  description: z.string().describe("Why you are editing this file, in a few words. Provide first."),
  path: z.string().describe("Absolute virtual path of the file to edit."),
  old_str: z.string().describe("The exact text to replace."),
  new_str: z.string().describe("The text to put in its place."),
  replace_all: z
    .boolean()
    .default(false)
    .describe("Replace every occurrence instead of only the first."),
});

/**
 * `str_replace`: replaces the first (or every) occurrence of `old_str` in a text file, under the
 * same per-file lock as write_file. An empty `old_str` changes nothing; text that is not there is
 * an error naming the file.
 */
export function createStrReplaceTool(provider: SandboxProvider) {
  return defineSandboxTool(provider, {
    name: "str_replace",
    description:
      "Replace text in a file of the thread's sandbox: the first occurrence of old_str, or every one with replace_all.",
    schema: strReplaceSchema,
    doingWhat: "replacing text in file",
    async run(sandbox, input) {
      await sandbox.replaceInFile(input.path, input.old_str, input.new_str, {
        replaceAll: input.replace_all,
      });
      return "OK";
    },
    describeFailure: (error, input, sandbox) => describeWriteFailure(error, input.path, sandbox),
  });
}
