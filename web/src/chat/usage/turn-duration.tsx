import type { ReactNode } from "react";
import { useT } from "../../i18n/locale-context.js";
import { chatActivityMessages } from "../../i18n/messages/chat-activity.js";
import { formatElapsed, useNow } from "./elapsed.js";
import type { TurnTime } from "./turn-durations.js";

/** "Took 0:12" under a finished turn; "Working for 0:03", ticking, under a running one. */
export function TurnDuration({ time }: { time: TurnTime }): ReactNode {
  const t = useT(chatActivityMessages);
  const now = useNow(time.state === "running");
  const text =
    time.state === "finished"
      ? t("turnTook", { time: formatElapsed(time.ms) })
      : t("turnRunning", { time: formatElapsed(now - time.since) });
  return (
    <span className="turn-duration" data-testid="turn-duration" data-state={time.state}>
      {text}
    </span>
  );
}
