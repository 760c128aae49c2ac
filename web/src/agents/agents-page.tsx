import type { ReactNode } from "react";
import { useT } from "../i18n/locale-context.js";
import { commonMessages } from "../i18n/messages/common.js";

interface Props {
  onOpenThread: (threadId: string) => void;
}

/** Custom agents: list, create, edit, delete, and start a chat with one. */
export function AgentsPage(_props: Props): ReactNode {
  const t = useT(commonMessages);
  return (
    <section className="page agents-page" aria-labelledby="agents-title">
      <h1 id="agents-title">{t("agents")}</h1>
    </section>
  );
}
