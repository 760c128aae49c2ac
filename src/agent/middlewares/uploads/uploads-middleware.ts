import { stat } from "node:fs/promises";
import { extname, join } from "node:path";
import { HumanMessage, type MessageContent } from "@langchain/core/messages";
import { type FawnPaths, VIRTUAL_USER_DATA } from "../../../core/paths.js";
import type { UploadedFile } from "../../lead-agent/thread-state.js";
import { latestUserIndex } from "../conversation.js";
import type { AgentMiddleware } from "../types.js";

/** Where the user's original text is kept once the uploads block is prepended. */
export const ORIGINAL_USER_CONTENT_KEY = "original_user_content";
/** Files listed one by one; the rest are counted by extension. */
const LISTED_FILES = 10;

export interface UploadsOptions {
  paths: FawnPaths;
}

/**
 * Tells the model which files came with this message: the client lists them in
 * the message's `additional_kwargs.files`; entries that are bare names of real files in the
 * thread's uploads folder become `uploaded_files` and a `<current_uploads>` block in front of
 * the message. Staging files, paths and missing files are ignored.
 */
export function createUploadsMiddleware(options: UploadsOptions): AgentMiddleware {
  return {
    name: "UploadsMiddleware",
    tag: "uploads",
    async beforeAgent(state, runtime) {
      const index = latestUserIndex(state.messages);
      const message = state.messages[index];
      if (!message || !HumanMessage.isInstance(message)) return { update: { uploaded_files: [] } };
      if (ORIGINAL_USER_CONTENT_KEY in message.additional_kwargs) return undefined;
      const uploadsDir =
        state.thread_data?.uploads_path ??
        (runtime.threadId
          ? options.paths.threadPaths({ userId: runtime.userId, threadId: runtime.threadId })
              .uploadsDir
          : null);
      const declared = declaredFiles(message.additional_kwargs.files);
      const files = uploadsDir ? await existingUploads(uploadsDir, declared) : [];
      if (files.length === 0) return { update: { uploaded_files: [] } };
      const withBlock = new HumanMessage({
        content: prepend(uploadsBlock(files), message.content),
        id: message.id,
        name: message.name,
        additional_kwargs: {
          ...message.additional_kwargs,
          [ORIGINAL_USER_CONTENT_KEY]: message.content,
        },
        response_metadata: message.response_metadata,
      });
      runtime.record("beforeAgent", "injected_uploads", {
        files: files.map((file) => file.filename),
      });
      return { update: { uploaded_files: files, messages: [withBlock] } };
    },
  };
}

function declaredFiles(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const names: string[] = [];
  for (const entry of value) {
    const listed: unknown =
      typeof entry === "object" && entry !== null && "filename" in entry ? entry.filename : null;
    // Uploads are stored under the NFC spelling of their name, whichever one the client sends.
    const name = typeof listed === "string" ? listed.normalize("NFC") : null;
    if (name !== null && isBareUploadName(name) && !names.includes(name)) {
      names.push(name);
    }
  }
  return names;
}

/** A plain file name: no folders, no traversal, not an in-progress upload. */
function isBareUploadName(name: string): boolean {
  if (name === "" || name === "." || name === ".." || /[/\\\0]/.test(name)) return false;
  return !/^\.upload-.*\.part$/.test(name);
}

async function existingUploads(uploadsDir: string, names: string[]): Promise<UploadedFile[]> {
  const found = await Promise.all(
    names.map(async (filename): Promise<UploadedFile | null> => {
      const stats = await stat(join(uploadsDir, filename)).catch(() => null);
      if (!stats?.isFile()) return null;
      return {
        filename,
        size: stats.size,
        // The virtual path: thread state is visible to clients, host paths are not.
        path: `${VIRTUAL_USER_DATA}/uploads/${filename}`,
        extension: extname(filename).slice(1).toLowerCase(),
      };
    }),
  );
  return found.filter((file): file is UploadedFile => file !== null);
}

function uploadsBlock(files: UploadedFile[]): string {
  const lines = files
    .slice(0, LISTED_FILES)
    .map(
      (file) =>
        `- ${neutralize(file.filename)} (${formatSize(file.size)}): ${neutralize(file.path)}`,
    );
  const rest = files.slice(LISTED_FILES);
  if (rest.length > 0) {
    const byExtension = new Map<string, number>();
    for (const file of rest) {
      const key = file.extension ? `.${file.extension}` : "no extension";
      byExtension.set(key, (byExtension.get(key) ?? 0) + 1);
    }
    const counts = [...byExtension.entries()]
      .map(([ext, n]) => `${n} ${neutralize(ext)}`)
      .join(", ");
    lines.push(`- … and ${rest.length} more (${counts})`);
  }
  return [
    "<current_uploads>",
    "The user attached these files to this message:",
    ...lines,
    "Inspect them with read_file (use start_line/end_line for long files), grep or glob.",
    "</current_uploads>",
  ].join("\n");
}

/** File names come from the user: they must not be able to open or close a tag. */
function neutralize(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

function prepend(block: string, content: MessageContent): MessageContent {
  if (typeof content === "string") return `${block}\n\n${content}`;
  return [{ type: "text", text: block }, ...content];
}
