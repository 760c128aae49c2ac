import type { StructuredToolInterface } from "@langchain/core/tools";
import type { FawnPaths } from "../../core/paths.js";
import { createPresentFilesTool } from "./present-files.js";
import { createWriteFileTool } from "./write-file.js";

/**
 * The file tools the lead agent has today: real `write_file` and `present_files` on the thread's
 * folders. `bash` and the read tools come with the sandbox; until then the agent has none.
 */
export function createThreadFileTools(options: { paths: FawnPaths }): StructuredToolInterface[] {
  return [createWriteFileTool(options), createPresentFilesTool(options)];
}
