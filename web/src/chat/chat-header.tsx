import type { ReactNode } from "react";
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
  artifactCount: number;
  artifactsOpen: boolean;
  onOpenArtifacts: () => void;
}

/** The chat's title, whether a run goes on, the token gauge, exports and the artifacts toggle. */
export function ChatHeader({
  threadId,
  title,
  streaming,
  groups,
  messages,
  tokenUsage,
  artifactCount,
  artifactsOpen,
  onOpenArtifacts,
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
      {threadId && artifactCount > 0 && !artifactsOpen && (
        <button type="button" className="link-button artifacts-toggle" onClick={onOpenArtifacts}>
          {t("artifactsToggle", { count: artifactCount })}
        </button>
      )}
    </header>
  );
}
