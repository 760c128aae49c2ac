import { type ReactNode, useCallback, useEffect, useState } from "react";
import { apiJson } from "../api/http.js";
import type { ModelInfo, ModelList } from "../api/types.js";
import { useT } from "../i18n/locale-context.js";
import { agentsMessages } from "../i18n/messages/agents.js";
import { useErrorText } from "../i18n/use-error-text.js";
import { type Editing, type Listing, RecordListing } from "../pages/record-listing.js";
import { type PageNotice, RecordPage } from "../pages/record-page.js";
import { AgentCard } from "./agent-card.js";
import { AgentForm } from "./agent-form.js";
import {
  type Agent,
  createAgent,
  deleteAgent,
  listAgents,
  listSkillNames,
  updateAgent,
} from "./agents-api.js";
import { openChatWithAgent } from "./open-agent-chat.js";
import "./agents.css";

interface Props {
  onOpenThread: (threadId: string) => void;
}

/** Custom agents: list, create, edit, delete, and start a chat with one. */
export function AgentsPage(_props: Props): ReactNode {
  const t = useT(agentsMessages);
  const sayError = useErrorText();
  const [listing, setListing] = useState<Listing<Agent>>({ state: "loading" });
  const [editing, setEditing] = useState<Editing<Agent>>({ mode: "none" });
  const [models, setModels] = useState<ModelInfo[]>([]);
  const [skills, setSkills] = useState<string[]>([]);
  const [notice, setNotice] = useState<PageNotice | null>(null);

  const load = useCallback(async () => {
    try {
      setListing({ state: "ready", items: await listAgents() });
    } catch (caught) {
      const info = sayError(caught);
      // 403: `agents_api.enabled` is off; the server's sentence names the key.
      setListing(
        info.status === 403
          ? { state: "disabled", detail: info.text }
          : { state: "failed", detail: info.text },
      );
    }
  }, [sayError]);

  useEffect(() => {
    void load();
    apiJson<ModelList>("/models")
      .then((list) => setModels(list.models))
      .catch(() => setModels([]));
    void listSkillNames().then(setSkills);
  }, [load]);

  const save = async (name: string, fields: Parameters<typeof createAgent>[1]): Promise<void> => {
    const saved =
      editing.mode === "edit" ? await updateAgent(name, fields) : await createAgent(name, fields);
    setNotice({
      text: t(editing.mode === "edit" ? "saved" : "created", { name: saved.name }),
      error: false,
    });
    setEditing({ mode: "none" });
    await load();
  };

  const remove = async (agent: Agent): Promise<void> => {
    try {
      await deleteAgent(agent.name);
      setNotice({ text: t("deleted", { name: agent.name }), error: false });
      if (editing.mode === "edit" && editing.record.name === agent.name)
        setEditing({ mode: "none" });
    } catch (caught) {
      setNotice({ text: `${t("deleteFailed")} ${sayError(caught).text}`, error: true });
    }
    await load();
  };

  return (
    <RecordPage
      className="agents-page"
      title={t("title")}
      intro={t("intro")}
      notice={notice}
      actions={
        listing.state === "ready" &&
        editing.mode === "none" && (
          <button
            type="button"
            className="primary"
            onClick={() => {
              setNotice(null);
              setEditing({ mode: "create" });
            }}
          >
            {t("newAgent")}
          </button>
        )
      }
    >
      <RecordListing
        listing={listing}
        text={{ disabled: t("disabled"), loadFailed: t("loadFailed"), empty: t("empty") }}
        form={
          editing.mode !== "none" && (
            <AgentForm
              key={editing.mode === "edit" ? editing.record.name : "new"}
              agent={editing.mode === "edit" ? editing.record : null}
              models={models}
              skills={skills}
              t={t}
              onSubmit={save}
              onCancel={() => setEditing({ mode: "none" })}
            />
          )
        }
        keyOf={(agent) => agent.name}
        renderItem={(agent) => (
          <AgentCard
            agent={agent}
            t={t}
            onChat={() => openChatWithAgent(agent.name)}
            onEdit={() => {
              setNotice(null);
              setEditing({ mode: "edit", record: agent });
            }}
            onDelete={() => remove(agent)}
          />
        )}
      />
    </RecordPage>
  );
}
