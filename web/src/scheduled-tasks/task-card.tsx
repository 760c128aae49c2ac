import { type ReactNode, useEffect, useState } from "react";
import { type Translate, useLocale } from "../i18n/locale-context.js";
import { DeleteConfirm } from "../pages/delete-confirm.js";
import type { TasksKey } from "./task-form.js";
import { clockTime, formatInZone, presetOf, weekdayName } from "./task-schedule.js";
import {
  type Cron,
  lastTaskRun,
  modelOf,
  promptOf,
  type RunSummary,
  titleOf,
} from "./tasks-api.js";

interface Props {
  cron: Cron;
  t: Translate<TasksKey>;
  /** Changes when the list reloads, so the last run is read again. */
  revision: number;
  onOpenThread: (threadId: string) => void;
  onToggle: () => Promise<void>;
  onEdit: () => void;
  onDelete: () => Promise<void>;
}

const RUN_STATUS: Record<string, TasksKey> = {
  success: "runSuccess",
  error: "runError",
  running: "runRunning",
  pending: "runPending",
  interrupted: "runInterrupted",
  timeout: "runTimeout",
};

/** The schedule in words ("Every day at 09:00"), in the page's language. */
export function scheduleInWords(schedule: string, t: Translate<TasksKey>, locale: string): string {
  const preset = presetOf(schedule);
  switch (preset.kind) {
    case "hourly":
      return t("everyHour", { minute: preset.minute });
    case "daily":
      return t("everyDay", { time: clockTime(preset.hour, preset.minute) });
    case "weekly":
      return t("everyWeek", {
        weekday: weekdayName(preset.weekday, locale),
        time: clockTime(preset.hour, preset.minute),
      });
    case "cron":
      return t("customCron");
  }
}

/** One task: its schedule, next and last run, and its actions (delete asks first). */
export function TaskCard(props: Props): ReactNode {
  const { cron, t, revision, onOpenThread, onToggle, onEdit, onDelete } = props;
  const { locale } = useLocale();
  const [lastRun, setLastRun] = useState<RunSummary | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    void revision;
    let current = true;
    lastTaskRun(cron)
      .then((run) => {
        if (current) setLastRun(run);
      })
      .catch(() => {
        // The chat may be gone (deleted); the task then shows no last run.
        if (current) setLastRun(null);
      });
    return () => {
      current = false;
    };
  }, [cron, revision]);

  const title = titleOf(cron) || t("untitled");
  const prompt = promptOf(cron);
  const titleId = `task-${cron.cron_id}-title`;
  const zone = cron.timezone ?? "UTC";
  const next = !cron.enabled
    ? t("nextRunPaused")
    : cron.next_run_date
      ? formatInZone(cron.next_run_date, zone, locale)
      : t("nextRunNone");
  const act = (action: () => Promise<void>): void => {
    setBusy(true);
    void action().finally(() => setBusy(false));
  };
  const statusKey = lastRun ? RUN_STATUS[lastRun.status] : undefined;

  return (
    <li className="record-card" aria-labelledby={titleId} data-cron-id={cron.cron_id}>
      <div className="task-head">
        <h2 id={titleId} className="record-title">
          {title}
        </h2>
        <span className={cron.enabled ? "badge task-on" : "badge task-off"}>
          {cron.enabled ? t("statusEnabled") : t("statusPaused")}
        </span>
      </div>
      {prompt !== title && <p className="record-description task-prompt">{prompt}</p>}
      <dl className="record-facts">
        <dt>{t("scheduleLabel")}</dt>
        <dd>
          {scheduleInWords(cron.schedule, t, locale)} <code>{cron.schedule}</code>
        </dd>
        <dt>{t("timezoneLabel")}</dt>
        <dd>{zone}</dd>
        <dt>{t("nextRun")}</dt>
        <dd>{next}</dd>
        <dt>{t("lastRun")}</dt>
        <dd data-testid="last-run">
          {cron.thread_id === null
            ? t("lastRunFresh")
            : lastRun
              ? t("lastRunAt", {
                  time: formatInZone(lastRun.created_at, zone, locale),
                  status: statusKey ? t(statusKey) : lastRun.status,
                })
              : t("lastRunNone")}
        </dd>
        <dt>{t("modelLabel")}</dt>
        <dd>{modelOf(cron) ?? t("modelDefault")}</dd>
      </dl>
      {confirming ? (
        <DeleteConfirm
          question={t("confirmDelete", { title })}
          confirmLabel={t("confirmDeleteYes")}
          cancelLabel={t("cancel")}
          onConfirm={onDelete}
          onCancel={() => setConfirming(false)}
        />
      ) : (
        <div className="record-actions">
          {cron.thread_id !== null && (
            <button
              type="button"
              className="primary"
              onClick={() => cron.thread_id && onOpenThread(cron.thread_id)}
            >
              {t("openChat")}
            </button>
          )}
          <button type="button" disabled={busy} onClick={() => act(onToggle)}>
            {cron.enabled ? t("pause") : t("resume")}
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
