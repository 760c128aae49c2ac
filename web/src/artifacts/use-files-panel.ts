import { useEffect, useRef, useState } from "react";
import type { UploadedFile } from "../api/types.js";
import type { ChatMessage } from "../chat/message-groups.js";
import { useNarrowScreen } from "../shell/use-narrow-screen.js";
import { useThreadUploads } from "../uploads/use-thread-uploads.js";
import { fileWrites } from "./live-writes.js";

export interface FilesPanelState {
  /** The panel is shown (when it has something to show). */
  open: boolean;
  show: () => void;
  hide: () => void;
  uploads: UploadedFile[];
  /** Every file the panel lists: delivered, uploaded, being written. */
  count: number;
  /** Files a run delivered or started writing while the panel was closed. */
  unseen: number;
}

interface Options {
  threadId: string | null;
  /** The thread's delivered files (`values.artifacts`). */
  artifacts: readonly string[];
  messages: readonly ChatMessage[];
  streaming: boolean;
}

/**
 * Whether the chat's artifacts panel is shown, and what the header's button says of it. Wide, the
 * panel is open until the user closes it, so a file being written shows in it at once. Narrow, it
 * would cover the chat: it stays closed until the button opens it, and the button counts the
 * files that arrived meanwhile.
 */
export function useFilesPanel({
  threadId,
  artifacts,
  messages,
  streaming,
}: Options): FilesPanelState {
  const narrow = useNarrowScreen();
  const [open, setOpen] = useState(() => !narrow);
  const uploads = useThreadUploads(threadId, streaming);
  const writing = streaming
    ? fileWrites(messages)
        .filter((write) => !write.done && !write.failed)
        .map((write) => write.path)
    : [];
  const outputs = [...new Set([...artifacts, ...writing])];
  const listed = new Set([...outputs, ...uploads.map((upload) => upload.virtual_path)]);

  // Every output path seen so far: only one not seen before, arriving during a run, is new.
  const known = useRef<Set<string>>(new Set(outputs));
  const [unseen, setUnseen] = useState<readonly string[]>([]);
  const outputsKey = outputs.join("\n");
  useEffect(() => {
    const paths = outputsKey === "" ? [] : outputsKey.split("\n");
    const fresh = paths.filter((path) => !known.current.has(path));
    for (const path of fresh) known.current.add(path);
    if (open) setUnseen((current) => (current.length === 0 ? current : []));
    else if (streaming && fresh.length > 0)
      setUnseen((current) => [...new Set([...current, ...fresh])]);
  }, [outputsKey, open, streaming]);

  return {
    open,
    show: () => setOpen(true),
    hide: () => setOpen(false),
    uploads,
    count: listed.size,
    unseen: unseen.length,
  };
}
