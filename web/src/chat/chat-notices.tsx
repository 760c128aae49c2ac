import type { ReactNode } from "react";

/** The empty chat's first screen, with what to try on the offline demo. */
export function Welcome(): ReactNode {
  return (
    <div className="welcome">
      <h2>What should Fawn do?</h2>
      <p className="muted">
        Ask for a report, some code, a web page or an analysis of a file you attach. With the
        offline demo model, try “Write me a short report”, “Write me some code”, “Make me a web
        page” or attach a CSV; turn Plan on to see it plan.
      </p>
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
  return (
    <>
      {missing && (
        <div className="notice-card" role="alert">
          <p>
            <strong>This chat does not exist or was deleted.</strong> Its link may be old.
          </p>
          <button type="button" className="primary" onClick={onNewChat}>
            Start a new chat
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
          Stopped.
        </p>
      )}
      {offline && (
        <div className="connection-banner" role="status">
          {offline.back
            ? "Connected again. Your message is back in the box: send it when ready."
            : "Cannot reach Fawn's server. Reconnecting…"}
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
