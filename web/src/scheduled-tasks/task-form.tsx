import { type FormEvent, type ReactNode, useId, useMemo, useState } from "react";
import { errorText } from "../api/error-text.js";
import type { ModelInfo } from "../api/types.js";
import { type Translate, useLocale } from "../i18n/locale-context.js";
import type { scheduledTasksMessages } from "../i18n/messages/scheduled-tasks.js";
import {
  browserTimeZone,
  clockTime,
  cronOf,
  cronProblem,
  presetOf,
  type SchedulePreset,
  timeZones,
  weekdayName,
} from "./task-schedule.js";
import { type Cron, modelOf, promptOf, type TaskDraft, titleOf } from "./tasks-api.js";

export type TasksKey = keyof (typeof scheduledTasksMessages)["en"];

interface Props {
  /** The task being edited; null creates one. */
  cron: Cron | null;
  models: ModelInfo[];
  t: Translate<TasksKey>;
  onSubmit: (draft: TaskDraft) => Promise<void>;
  onCancel: () => void;
}

type PresetKind = SchedulePreset["kind"];
const PRESET_LABELS: Record<PresetKind, TasksKey> = {
  hourly: "presetHourly",
  daily: "presetDaily",
  weekly: "presetWeekly",
  cron: "presetCron",
};

/** Create or edit a task: its prompt, a schedule (a preset or a cron expression) and zone. */
export function TaskForm({ cron, models, t, onSubmit, onCancel }: Props): ReactNode {
  const id = useId();
  const { locale } = useLocale();
  const start = cron ? presetOf(cron.schedule) : ({ kind: "daily", hour: 9, minute: 0 } as const);
  const [title, setTitle] = useState(cron ? titleOf(cron) : "");
  const [prompt, setPrompt] = useState(cron ? promptOf(cron) : "");
  const [kind, setKind] = useState<PresetKind>(start.kind);
  const [minute, setMinute] = useState(String("minute" in start ? start.minute : 0));
  const [time, setTime] = useState(
    "hour" in start ? clockTime(start.hour, start.minute) : clockTime(9, 0),
  );
  const [weekday, setWeekday] = useState("weekday" in start ? start.weekday : 1);
  const [expression, setExpression] = useState(cron?.schedule ?? "0 9 * * 1-5");
  const [timezone, setTimezone] = useState(cron?.timezone ?? browserTimeZone());
  const [model, setModel] = useState(cron ? (modelOf(cron) ?? "") : "");
  const [target, setTarget] = useState<TaskDraft["target"]>("chat");
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const zones = useMemo(() => {
    const all = timeZones();
    return all.includes(timezone) ? all : [timezone, ...all];
  }, [timezone]);

  /** The schedule's cron text, or the reason it has none. */
  const schedule = (): { cron: string } | { problem: string } => {
    if (kind === "cron") {
      const wrong = cronProblem(expression);
      return wrong ? { problem: t(wrong) } : { cron: cronOf({ kind, expression }) };
    }
    if (kind === "hourly") {
      const value = Number(minute);
      if (!/^\d{1,2}$/.test(minute.trim()) || value > 59) return { problem: t("minuteRange") };
      return { cron: cronOf({ kind, minute: value }) };
    }
    const match = /^(\d{2}):(\d{2})$/.exec(time);
    if (!match) return { problem: t("timeRequired") };
    const at = { hour: Number(match[1]), minute: Number(match[2]) };
    return { cron: cronOf(kind === "daily" ? { kind, ...at } : { kind, weekday, ...at }) };
  };

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setProblem(null);
    if (prompt.trim() === "") return setProblem(t("promptRequired"));
    const picked = schedule();
    if ("problem" in picked) return setProblem(picked.problem);
    setSaving(true);
    try {
      await onSubmit({
        title: title.trim(),
        prompt: prompt.trim(),
        schedule: picked.cron,
        timezone,
        model: model || null,
        target,
      });
    } catch (caught) {
      setProblem(`${t("saveFailed")} ${errorText(caught).text}`);
    } finally {
      setSaving(false);
    }
  };

  const titleId = `${id}-title`;
  return (
    <form
      className="record-form"
      noValidate
      aria-labelledby={titleId}
      onSubmit={(e) => void submit(e)}
      // An edit answers the last complaint: it goes until the next submit.
      onChange={() => setProblem(null)}
    >
      <h2 id={titleId}>
        {cron ? t("formEditTitle", { title: titleOf(cron) }) : t("formCreateTitle")}
      </h2>
      <div className="field">
        <label htmlFor={`${id}-taskTitle`}>{t("taskTitle")}</label>
        <input
          id={`${id}-taskTitle`}
          value={title}
          maxLength={120}
          aria-describedby={`${id}-title-note`}
          onChange={(event) => setTitle(event.target.value)}
        />
        <span id={`${id}-title-note`} className="field-note">
          {t("taskTitleHint")}
        </span>
      </div>
      <div className="field">
        <label htmlFor={`${id}-prompt`}>{t("prompt")}</label>
        <textarea
          id={`${id}-prompt`}
          value={prompt}
          rows={4}
          aria-describedby={`${id}-prompt-note`}
          onChange={(event) => setPrompt(event.target.value)}
        />
        <span id={`${id}-prompt-note`} className="field-note">
          {t("promptHint")}
        </span>
      </div>
      <fieldset className="field">
        <legend>{t("repeat")}</legend>
        <div className="task-presets">
          {(Object.keys(PRESET_LABELS) as PresetKind[]).map((option) => (
            <label key={option} className="check">
              <input
                type="radio"
                name={`${id}-preset`}
                checked={kind === option}
                onChange={() => setKind(option)}
              />
              {t(PRESET_LABELS[option])}
            </label>
          ))}
        </div>
        <div className="task-when">
          {kind === "hourly" && (
            <div className="field">
              <label htmlFor={`${id}-minute`}>{t("minute")}</label>
              <input
                id={`${id}-minute`}
                type="number"
                min={0}
                max={59}
                value={minute}
                onChange={(event) => setMinute(event.target.value)}
              />
            </div>
          )}
          {kind === "weekly" && (
            <div className="field">
              <label htmlFor={`${id}-weekday`}>{t("weekday")}</label>
              <select
                id={`${id}-weekday`}
                value={weekday}
                onChange={(event) => setWeekday(Number(event.target.value))}
              >
                {[1, 2, 3, 4, 5, 6, 0].map((day) => (
                  <option key={day} value={day}>
                    {weekdayName(day, locale)}
                  </option>
                ))}
              </select>
            </div>
          )}
          {(kind === "daily" || kind === "weekly") && (
            <div className="field">
              <label htmlFor={`${id}-time`}>{t("time")}</label>
              <input
                id={`${id}-time`}
                type="time"
                value={time}
                onChange={(event) => setTime(event.target.value)}
              />
            </div>
          )}
          {kind === "cron" && (
            <div className="field task-cron">
              <label htmlFor={`${id}-cronExpression`}>{t("cronExpression")}</label>
              <input
                id={`${id}-cronExpression`}
                value={expression}
                spellCheck={false}
                autoComplete="off"
                aria-describedby={`${id}-cron-note`}
                onChange={(event) => setExpression(event.target.value)}
              />
              <span id={`${id}-cron-note`} className="field-note">
                {t("cronHint")}
              </span>
            </div>
          )}
        </div>
      </fieldset>
      <div className="task-row">
        <div className="field">
          <label htmlFor={`${id}-timezoneLabel`}>{t("timezoneLabel")}</label>
          <select
            id={`${id}-timezoneLabel`}
            value={timezone}
            onChange={(event) => setTimezone(event.target.value)}
          >
            {zones.map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-modelLabel`}>{t("modelLabel")}</label>
          <select
            id={`${id}-modelLabel`}
            value={model}
            onChange={(event) => setModel(event.target.value)}
          >
            <option value="">{t("modelDefault")}</option>
            {models.map((entry) => (
              <option key={entry.name} value={entry.name}>
                {entry.display_name ?? entry.name}
              </option>
            ))}
          </select>
        </div>
      </div>
      {!cron && (
        <fieldset className="field">
          <legend>{t("target")}</legend>
          <label className="check">
            <input
              type="radio"
              name={`${id}-target`}
              checked={target === "chat"}
              onChange={() => setTarget("chat")}
            />
            {t("targetChat")}
          </label>
          <label className="check">
            <input
              type="radio"
              name={`${id}-target`}
              checked={target === "fresh"}
              onChange={() => setTarget("fresh")}
            />
            {t("targetFresh")}
          </label>
        </fieldset>
      )}
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      <div className="record-actions">
        <button type="submit" className="primary" disabled={saving}>
          {saving ? t("saving") : cron ? t("save") : t("create")}
        </button>
        <button type="button" onClick={onCancel}>
          {t("cancel")}
        </button>
      </div>
    </form>
  );
}
