import { type ReactNode, useCallback, useEffect, useState } from "react";
import { errorText } from "../api/error-text.js";
import { apiJson } from "../api/http.js";
import type { ModelInfo, ModelList } from "../api/types.js";
import { useT } from "../i18n/locale-context.js";
import { scheduledTasksMessages } from "../i18n/messages/scheduled-tasks.js";
import { type Editing, type Listing, RecordListing } from "../pages/record-listing.js";
import { type PageNotice, RecordPage } from "../pages/record-page.js";
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
import "./scheduled-tasks.css";

interface Props {
  onOpenThread: (threadId: string) => void;
}

/** While the page is open the list is read again this often (next runs move, firings land). */
const REFRESH_MS = 15_000;

/** Scheduled tasks (crons): list, create, pause, delete, and open a firing's chat. */
export function ScheduledTasksPage({ onOpenThread }: Props): ReactNode {
  const t = useT(scheduledTasksMessages);
  const [listing, setListing] = useState<Listing<Cron>>({ state: "loading" });
  const [editing, setEditing] = useState<Editing<Cron>>({ mode: "none" });
  const [models, setModels] = useState<ModelInfo[]>([]);
  const [notice, setNotice] = useState<PageNotice | null>(null);
  const [revision, setRevision] = useState(0);

  const load = useCallback(async () => {
    try {
      const crons = await listCrons();
      setListing({ state: "ready", items: crons });
      setRevision((value) => value + 1);
    } catch (caught) {
      const info = errorText(caught);
      // 404: the server runs no crons (`crons.enabled: false` serves no cron routes).
      setListing(
        info.status === 404
          ? { state: "disabled", detail: null }
          : { state: "failed", detail: info.text },
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
      editing.mode === "edit" ? await updateTask(editing.record, draft) : await createTask(draft);
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
    <RecordPage
      className="scheduled-tasks-page"
      title={t("title")}
      intro={t("intro")}
      notice={notice}
      actions={
        listing.state === "ready" && (
          <>
            <button type="button" onClick={() => void load()}>
              {t("refresh")}
            </button>
            {editing.mode === "none" && (
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
          </>
        )
      }
    >
      <RecordListing
        listing={listing}
        text={{ disabled: t("disabled"), loadFailed: t("loadFailed"), empty: t("empty") }}
        form={
          editing.mode !== "none" && (
            <TaskForm
              key={editing.mode === "edit" ? editing.record.cron_id : "new"}
              cron={editing.mode === "edit" ? editing.record : null}
              models={models}
              t={t}
              onSubmit={save}
              onCancel={() => setEditing({ mode: "none" })}
            />
          )
        }
        keyOf={(cron) => cron.cron_id}
        renderItem={(cron) => (
          <TaskCard
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
              setEditing({ mode: "edit", record: cron });
            }}
            onDelete={() =>
              act(() => deleteTask(cron.cron_id), t("deleted", { title: title(cron) }))
            }
          />
        )}
      />
    </RecordPage>
  );
}
