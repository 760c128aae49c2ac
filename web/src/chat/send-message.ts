import type { Client } from "@langchain/langgraph-sdk";
import type { UploadedFile } from "../api/types.js";
import { type UploadControl, uploadFile } from "../uploads/upload-file.js";

/**
 * Uploads a message's attachments to its thread, one request per file (so each has its own
 * progress and its own refusal). A new chat's thread is created first (with `metadata`), since
 * uploads need its id; the SDK then reuses it (creating a thread is idempotent). Without files
 * nothing is called and `target` stays as it was. A cancel stops the file on its way and sends
 * nothing more.
 */
export async function uploadAttachments(
  client: Client,
  threadId: string | null,
  files: File[],
  metadata: Record<string, string> | null,
  control?: UploadControl,
): Promise<{ target: string | null; uploaded: UploadedFile[] }> {
  if (files.length === 0) return { target: threadId, uploaded: [] };
  const target = threadId ?? (await client.threads.create(metadata ? { metadata } : {})).thread_id;
  const signal = control?.signal ?? new AbortController().signal;
  const uploaded: UploadedFile[] = [];
  for (const [index, file] of files.entries()) {
    uploaded.push(
      await uploadFile(
        target,
        file,
        (loaded, total) => control?.onProgress(index, loaded, total),
        signal,
        control?.cancelledText ?? "The upload was cancelled.",
      ),
    );
  }
  return { target, uploaded };
}

/** The user's message as the run's input, naming its uploaded files as the reference does. */
export function humanMessage(text: string, uploaded: UploadedFile[]) {
  return {
    type: "human" as const,
    content: text,
    ...(uploaded.length > 0
      ? { additional_kwargs: { files: uploaded.map((file) => ({ ...file, status: "uploaded" })) } }
      : {}),
  };
}

/** The run's `configurable`: the picked model and Plan mode. */
export function runConfig(modelName: string | null, planMode: boolean, subagents = false) {
  return {
    configurable: {
      ...(modelName ? { model_name: modelName } : {}),
      ...(planMode ? { is_plan_mode: true } : {}),
      ...(subagents ? { subagent_enabled: true } : {}),
    },
  };
}
