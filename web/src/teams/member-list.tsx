import type { MouseEvent, ReactNode } from "react";
import { useT } from "../i18n/locale-context.js";
import { teamsMessages } from "../i18n/messages/teams.js";
import { pathForThread } from "../routing.js";
import type { TeamMember } from "./team-types.js";

interface Props {
  members: TeamMember[];
  onOpenThread: (threadId: string) => void;
}

/** The roster; each member's name links to its conversation in the chat view. */
export function MemberList({ members, onOpenThread }: Props): ReactNode {
  const t = useT(teamsMessages);
  const open = (event: MouseEvent<HTMLAnchorElement>, threadId: string): void => {
    // A plain click navigates in the app; modified clicks (new tab, …) keep the browser's way.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
      return;
    event.preventDefault();
    onOpenThread(threadId);
  };
  return (
    <section className="team-card" aria-labelledby="members-title">
      <h2 id="members-title">{t("members")}</h2>
      <ul className="team-rows">
        {members.map((member) => (
          <li key={member.id} className="member">
            <a
              href={pathForThread(member.thread_id)}
              onClick={(event) => open(event, member.thread_id)}
              title={t("openConversation", { name: member.name })}
            >
              {member.name}
            </a>
            <span className="muted small">{member.agent}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
