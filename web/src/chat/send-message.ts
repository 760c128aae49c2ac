import type { Client } from "@langchain/langgraph-sdk";
import { apiJson } from "../api/http.js";
import type { UploadAnswer, UploadedFile } from "../api/types.js";

/**
 * Uploads a message's attachments to its thread. A new chat's thread is created first (with
 * `metadata`), since uploads need its id; the SDK then reuses it (creating a thread is
 * idempotent). Without files nothing is called and `target` stays as it was.
 */
export async function uploadAttachments(
  client: Client,
  threadId: string | null,
  files: File[],
  metadata: Record<string, string> | null,
): Promise<{ target: string | null; uploaded: UploadedFile[] }> {
  if (files.length === 0) return { target: threadId, uploaded: [] };
  const target = threadId ?? (await client.threads.create(metadata ? { metadata } : {})).thread_id;
  const form = new FormData();
  for (const file of files) form.append("files", file, file.name);
  const answer = await apiJson<UploadAnswer>(`/threads/${encodeURIComponent(target)}/uploads`, {
    method: "POST",
    body: form,
  });
  return { target, uploaded: answer.files };
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
export function runConfig(modelName: string | null, planMode: boolean) {
  return {
    configurable: {
      ...(modelName ? { model_name: modelName } : {}),
      ...(planMode ? { is_plan_mode: true } : {}),
    },
  };
}
