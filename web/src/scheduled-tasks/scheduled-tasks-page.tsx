import type { ReactNode } from "react";
import { useT } from "../i18n/locale-context.js";
import { commonMessages } from "../i18n/messages/common.js";

interface Props {
  onOpenThread: (threadId: string) => void;
}

/** Scheduled tasks (crons): list, create, pause, delete, and open a firing's chat. */
export function ScheduledTasksPage(_props: Props): ReactNode {
  const t = useT(commonMessages);
  return (
    <section className="page scheduled-tasks-page" aria-labelledby="scheduled-tasks-title">
      <h1 id="scheduled-tasks-title">{t("scheduledTasks")}</h1>
    </section>
  );
}
