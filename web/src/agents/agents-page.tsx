import { type ReactNode, useCallback, useEffect, useState } from "react";
import { apiJson } from "../api/http.js";
import type { ModelInfo, ModelList } from "../api/types.js";
import { useT } from "../i18n/locale-context.js";
import { agentsMessages } from "../i18n/messages/agents.js";
import { useErrorText } from "../i18n/use-error-text.js";
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
import "../pages/record-page.css";
import "./agents.css";

interface Props {
  onOpenThread: (threadId: string) => void;
}

type Listing =
  | { state: "loading" }
  | { state: "ready"; agents: Agent[] }
  | { state: "disabled"; detail: string }
  | { state: "failed"; detail: string };

/** What the form shows: nothing, a new agent, or one being edited. */
type Editing = { mode: "none" } | { mode: "create" } | { mode: "edit"; agent: Agent };

/** Custom agents: list, create, edit, delete, and start a chat with one. */
export function AgentsPage(_props: Props): ReactNode {
  const t = useT(agentsMessages);
  const sayError = useErrorText();
  const [listing, setListing] = useState<Listing>({ state: "loading" });
  const [editing, setEditing] = useState<Editing>({ mode: "none" });
  const [models, setModels] = useState<ModelInfo[]>([]);
  const [skills, setSkills] = useState<string[]>([]);
  const [notice, setNotice] = useState<{ text: string; error: boolean } | null>(null);

  const load = useCallback(async () => {
    try {
      setListing({ state: "ready", agents: await listAgents() });
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
      if (editing.mode === "edit" && editing.agent.name === agent.name)
        setEditing({ mode: "none" });
    } catch (caught) {
      setNotice({ text: `${t("deleteFailed")} ${sayError(caught).text}`, error: true });
    }
    await load();
  };

  return (
    <section className="page record-page agents-page" aria-labelledby="agents-title">
      <header className="page-header">
        <h1 id="agents-title">{t("title")}</h1>
        {listing.state === "ready" && editing.mode === "none" && (
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
        )}
      </header>
      <div className="page-body">
        <p className="muted page-intro">{t("intro")}</p>
        {notice && (
          <p className={notice.error ? "error" : "page-notice"} role="status">
            {notice.text}
          </p>
        )}
        {listing.state === "loading" && <p className="muted">…</p>}
        {listing.state === "disabled" && (
          <div className="notice-card" role="status">
            <p>{t("disabled")}</p>
            <p className="muted small">{listing.detail}</p>
          </div>
        )}
        {listing.state === "failed" && (
          <p className="error" role="alert">
            {t("loadFailed")} {listing.detail}
          </p>
        )}
        {editing.mode !== "none" && (
          <AgentForm
            key={editing.mode === "edit" ? editing.agent.name : "new"}
            agent={editing.mode === "edit" ? editing.agent : null}
            models={models}
            skills={skills}
            t={t}
            onSubmit={save}
            onCancel={() => setEditing({ mode: "none" })}
          />
        )}
        {listing.state === "ready" &&
          (listing.agents.length === 0 ? (
            editing.mode === "none" && <p className="muted">{t("empty")}</p>
          ) : (
            <ul className="record-list">
              {listing.agents.map((agent) => (
                <AgentCard
                  key={agent.name}
                  agent={agent}
                  t={t}
                  onChat={() => openChatWithAgent(agent.name)}
                  onEdit={() => {
                    setNotice(null);
                    setEditing({ mode: "edit", agent });
                  }}
                  onDelete={() => remove(agent)}
                />
              ))}
            </ul>
          ))}
      </div>
    </section>
  );
}
