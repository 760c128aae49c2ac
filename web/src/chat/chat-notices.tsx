import type { ReactNode } from "react";
import { useT } from "../i18n/locale-context.js";
import { chatMessages } from "../i18n/messages/chat.js";

/** The empty chat's first screen, with what to try on the offline demo. */
export function Welcome(): ReactNode {
  const t = useT(chatMessages);
  return (
    <div className="welcome">
      <h2>{t("welcomeTitle")}</h2>
      <p className="muted">{t("welcomeBody")}</p>
    </div>
  );
}

interface Props {
  /** The chat's link names a thread that does not exist (old or deleted). */
  missing: boolean;
  onNewChat: () => void;
  /** How the last run ended when it did not finish (for a chat opened after it). */
  unfinished: string | null;
  stopped: boolean;
  /** The server was unreachable; `back` once it answers again. */
  offline: { back: boolean } | null;
  error: { label: string; detail: string } | null;
}

/** What the chat says below the conversation about its state: each a status or an alert. */
export function ChatNotices({
  missing,
  onNewChat,
  unfinished,
  stopped,
  offline,
  error,
}: Props): ReactNode {
  const t = useT(chatMessages);
  return (
    <>
      {missing && (
        <div className="notice-card" role="alert">
          <p>
            <strong>{t("missingTitle")}</strong> {t("missingBody")}
          </p>
          <button type="button" className="primary" onClick={onNewChat}>
            {t("startNewChat")}
          </button>
        </div>
      )}
      {unfinished && (
        <p className="notice" role="status">
          {unfinished}
        </p>
      )}
      {stopped && (
        <p className="notice" role="status">
          {t("stopped")}
        </p>
      )}
      {offline && (
        <div className="connection-banner" role="status">
          {offline.back ? t("reconnected") : t("reconnecting")}
        </div>
      )}
      {error && (
        <div className="run-error" role="alert">
          <strong>{error.label}</strong> {error.detail}
        </div>
      )}
    </>
  );
}
