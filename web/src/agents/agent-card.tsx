import { type ReactNode, useState } from "react";
import type { Translate } from "../i18n/locale-context.js";
import type { agentsMessages } from "../i18n/messages/agents.js";
import { DeleteConfirm } from "../pages/delete-confirm.js";
import type { Agent } from "./agents-api.js";

type AgentsKey = keyof (typeof agentsMessages)["en"];

interface Props {
  agent: Agent;
  t: Translate<AgentsKey>;
  onChat: () => void;
  onEdit: () => void;
  onDelete: () => Promise<void>;
}

/** One agent: what it is, what it may use, and its actions (delete asks first). */
export function AgentCard({ agent, t, onChat, onEdit, onDelete }: Props): ReactNode {
  const [confirming, setConfirming] = useState(false);
  const titleId = `agent-${agent.name}-title`;
  const tools = agent.tool_groups === null ? t("toolsAll") : agent.tool_groups.join(", ") || "—";
  const skills =
    agent.skills === null
      ? t("skillsAll")
      : agent.skills.length === 0
        ? t("skillsNone")
        : agent.skills.join(", ");
  const settings = [
    agent.model_settings?.temperature != null
      ? t("summaryTemperature", { value: agent.model_settings.temperature })
      : null,
    agent.model_settings?.max_tokens != null
      ? t("summaryMaxTokens", { value: agent.model_settings.max_tokens })
      : null,
    agent.thinking_enabled === null
      ? null
      : t(agent.thinking_enabled ? "summaryThinkingOn" : "summaryThinkingOff"),
    agent.reasoning_effort
      ? t("summaryEffort", { value: t(`effort_${agent.reasoning_effort}`) })
      : null,
  ].filter((part) => part !== null);
  return (
    <li className="record-card" aria-labelledby={titleId} data-agent={agent.name}>
      <h2 id={titleId} className="record-title">
        {agent.name}
      </h2>
      <p className={agent.description ? "record-description" : "record-description muted"}>
        {agent.description || t("noDescription")}
      </p>
      <dl className="record-facts">
        <dt>{t("modelLabel")}</dt>
        <dd>{agent.model ?? t("modelDefault")}</dd>
        <dt>{t("toolsLabel")}</dt>
        <dd>{tools}</dd>
        <dt>{t("skillsLabel")}</dt>
        <dd>{skills}</dd>
        {settings.length > 0 && (
          <>
            <dt>{t("settingsLabel")}</dt>
            <dd>{settings.join(" · ")}</dd>
          </>
        )}
      </dl>
      {confirming ? (
        <DeleteConfirm
          question={t("confirmDelete", { name: agent.name })}
          confirmLabel={t("confirmDeleteYes", { name: agent.name })}
          cancelLabel={t("cancel")}
          onConfirm={onDelete}
          onCancel={() => setConfirming(false)}
        />
      ) : (
        <div className="record-actions">
          <button type="button" className="primary" onClick={onChat}>
            {t("chat")}
          </button>
          <button type="button" onClick={onEdit}>
            {t("edit")}
          </button>
          <button type="button" className="danger" onClick={() => setConfirming(true)}>
            {t("delete")}
          </button>
        </div>
      )}
    </li>
  );
}
