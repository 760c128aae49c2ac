import { useState } from "react";
import type { ChatRename } from "../threads/thread-list.js";

/**
 * The chat's title: a rename made in the chat list shows at once, until the thread's own title
 * changes after it (the stream's values are not read again for a rename).
 */
export function useRenamedTitle(
  rename: ChatRename | null,
  threadId: string | null,
  storedTitle: string | null,
): string | null {
  // The rename, and the stored title it replaced.
  const [renamed, setRenamed] = useState<{ title: string; over: string | null } | null>(null);
  // A rename that came before this view mounted is already in the thread it loads.
  const [seen, setSeen] = useState(rename);
  if (rename !== seen) {
    setSeen(rename);
    if (rename !== null && rename.threadId === threadId)
      setRenamed(rename.title === null ? null : { title: rename.title, over: storedTitle });
  }
  return renamed !== null && renamed.over === storedTitle ? renamed.title : storedTitle;
}
