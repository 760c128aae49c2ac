import type { ReactNode } from "react";
import type { FilesPanelState } from "../artifacts/use-files-panel.js";
import { useT } from "../i18n/locale-context.js";
import { chatMessages } from "../i18n/messages/chat.js";
import { chatAsMarkdown, downloadText, exportFileName } from "./export-chat.js";
import type { ChatMessage, MessageGroup } from "./message-groups.js";
import { TokenGauge } from "./usage/token-gauge.js";
import type { ThreadTokenUsage } from "./usage/use-token-usage.js";

interface Props {
  threadId: string | null;
  title: string | null;
  streaming: boolean;
  groups: MessageGroup[];
  messages: ChatMessage[];
  tokenUsage: ThreadTokenUsage | null;
  /** The artifacts panel: shown, or counted on the button that shows it. */
  files: FilesPanelState;
}

/** The chat's title, whether a run goes on, the token gauge, exports and the artifacts toggle. */
export function ChatHeader({
  threadId,
  title,
  streaming,
  groups,
  messages,
  tokenUsage,
  files,
}: Props): ReactNode {
  const t = useT(chatMessages);
  return (
    <header className="chat-header">
      <h1 className="chat-title">{title ?? (threadId ? t("chatTitle") : t("newChatTitle"))}</h1>
      {streaming && <span className="badge live">{t("working")}</span>}
      {tokenUsage && tokenUsage.total_tokens > 0 && <TokenGauge usage={tokenUsage} />}
      {threadId && groups.length > 0 && !streaming && (
        <span className="chat-export">
          <button
            type="button"
            className="link-button"
            onClick={() =>
              downloadText(
                exportFileName(title ?? "chat", "md"),
                "text/markdown",
                chatAsMarkdown(title ?? "Chat", groups),
              )
            }
          >
            {t("exportMarkdown")}
          </button>
          <button
            type="button"
            className="link-button"
            onClick={() =>
              downloadText(
                exportFileName(title ?? "chat", "json"),
                "application/json",
                `${JSON.stringify({ thread_id: threadId, title, messages }, null, 2)}\n`,
              )
            }
          >
            {t("exportJson")}
          </button>
        </span>
      )}
      {threadId && files.count > 0 && !files.open && (
        <button type="button" className="link-button artifacts-toggle" onClick={files.show}>
          {t("artifactsToggle", { count: files.count })}
          {files.unseen > 0 && " "}
          {files.unseen > 0 && (
            <span className="badge new-files">{t("artifactsNew", { count: files.unseen })}</span>
          )}
        </button>
      )}
    </header>
  );
}
