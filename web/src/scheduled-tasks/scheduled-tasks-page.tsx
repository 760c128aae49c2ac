import { type ReactNode, useCallback, useEffect, useState } from "react";
import { errorText } from "../api/error-text.js";
import { apiJson } from "../api/http.js";
import type { ModelInfo, ModelList } from "../api/types.js";
import { useT } from "../i18n/locale-context.js";
import { scheduledTasksMessages } from "../i18n/messages/scheduled-tasks.js";
import { TaskCard } from "./task-card.js";
import { TaskForm } from "./task-form.js";
import {
  type Cron,
  createTask,
  deleteTask,
  listCrons,
  setTaskEnabled,
  type TaskDraft,
  titleOf,
  updateTask,
} from "./tasks-api.js";
import "../pages/record-page.css";
import "./scheduled-tasks.css";

interface Props {
  onOpenThread: (threadId: string) => void;
}

type Listing =
  | { state: "loading" }
  | { state: "ready"; crons: Cron[] }
  | { state: "disabled" }
  | { state: "failed"; detail: string };

type Editing = { mode: "none" } | { mode: "create" } | { mode: "edit"; cron: Cron };

/** While the page is open the list is read again this often (next runs move, firings land). */
const REFRESH_MS = 15_000;

/** Scheduled tasks (crons): list, create, pause, delete, and open a firing's chat. */
export function ScheduledTasksPage({ onOpenThread }: Props): ReactNode {
  const t = useT(scheduledTasksMessages);
  const [listing, setListing] = useState<Listing>({ state: "loading" });
  const [editing, setEditing] = useState<Editing>({ mode: "none" });
  const [models, setModels] = useState<ModelInfo[]>([]);
  const [notice, setNotice] = useState<{ text: string; error: boolean } | null>(null);
  const [revision, setRevision] = useState(0);

  const load = useCallback(async () => {
    try {
      const crons = await listCrons();
      setListing({ state: "ready", crons });
      setRevision((value) => value + 1);
    } catch (caught) {
      const info = errorText(caught);
      // 404: the server runs no crons (`crons.enabled: false` serves no cron routes).
      setListing(
        info.status === 404 ? { state: "disabled" } : { state: "failed", detail: info.text },
      );
    }
  }, []);

  useEffect(() => {
    void load();
    apiJson<ModelList>("/models")
      .then((list) => setModels(list.models))
      .catch(() => setModels([]));
    const timer = window.setInterval(() => void load(), REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [load]);

  const title = (cron: Cron): string => titleOf(cron) || t("untitled");

  const save = async (draft: TaskDraft): Promise<void> => {
    const saved =
      editing.mode === "edit" ? await updateTask(editing.cron, draft) : await createTask(draft);
    setNotice({
      text: t(editing.mode === "edit" ? "saved" : "created", { title: title(saved) }),
      error: false,
    });
    setEditing({ mode: "none" });
    await load();
  };

  /** Runs one action on a task and says how it went, as a sentence. */
  const act = async (action: () => Promise<unknown>, done: string): Promise<void> => {
    try {
      await action();
      setNotice({ text: done, error: false });
    } catch (caught) {
      setNotice({ text: `${t("actionFailed")} ${errorText(caught).text}`, error: true });
    }
    await load();
  };

  return (
    <section
      className="page record-page scheduled-tasks-page"
      aria-labelledby="scheduled-tasks-title"
    >
      <header className="page-header">
        <h1 id="scheduled-tasks-title">{t("title")}</h1>
        {listing.state === "ready" && (
          <button type="button" onClick={() => void load()}>
            {t("refresh")}
          </button>
        )}
        {listing.state === "ready" && editing.mode === "none" && (
          <button
            type="button"
            className="primary"
            onClick={() => {
              setNotice(null);
              setEditing({ mode: "create" });
            }}
          >
            {t("newTask")}
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
          </div>
        )}
        {listing.state === "failed" && (
          <p className="error" role="alert">
            {t("loadFailed")} {listing.detail}
          </p>
        )}
        {editing.mode !== "none" && (
          <TaskForm
            key={editing.mode === "edit" ? editing.cron.cron_id : "new"}
            cron={editing.mode === "edit" ? editing.cron : null}
            models={models}
            t={t}
            onSubmit={save}
            onCancel={() => setEditing({ mode: "none" })}
          />
        )}
        {listing.state === "ready" &&
          (listing.crons.length === 0 ? (
            editing.mode === "none" && <p className="muted">{t("empty")}</p>
          ) : (
            <ul className="record-list">
              {listing.crons.map((cron) => (
                <TaskCard
                  key={cron.cron_id}
                  cron={cron}
                  t={t}
                  revision={revision}
                  onOpenThread={onOpenThread}
                  onToggle={() =>
                    act(
                      () => setTaskEnabled(cron.cron_id, !cron.enabled),
                      t(cron.enabled ? "paused" : "resumed", { title: title(cron) }),
                    )
                  }
                  onEdit={() => {
                    setNotice(null);
                    setEditing({ mode: "edit", cron });
                  }}
                  onDelete={() =>
                    act(() => deleteTask(cron.cron_id), t("deleted", { title: title(cron) }))
                  }
                />
              ))}
            </ul>
          ))}
      </div>
    </section>
  );
}
