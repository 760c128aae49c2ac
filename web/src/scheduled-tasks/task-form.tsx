import { type ReactNode, useId, useMemo, useState } from "react";
import { errorText } from "../api/error-text.js";
import type { ModelInfo } from "../api/types.js";
import { type Translate, useLocale } from "../i18n/locale-context.js";
import type { scheduledTasksMessages } from "../i18n/messages/scheduled-tasks.js";
import { Field, ModelField, RecordForm } from "../pages/record-form.js";
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

  const submit = async (): Promise<void> => {
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

  return (
    <RecordForm
      title={cron ? t("formEditTitle", { title: titleOf(cron) }) : t("formCreateTitle")}
      problem={problem}
      onEdited={() => setProblem(null)}
      onSubmit={submit}
      saving={saving}
      submitLabel={cron ? t("save") : t("create")}
      savingLabel={t("saving")}
      cancelLabel={t("cancel")}
      onCancel={onCancel}
    >
      <Field id={`${id}-taskTitle`} label={t("taskTitle")} note={t("taskTitleHint")}>
        {(control) => (
          <input
            {...control}
            value={title}
            maxLength={120}
            onChange={(event) => setTitle(event.target.value)}
          />
        )}
      </Field>
      <Field id={`${id}-prompt`} label={t("prompt")} note={t("promptHint")}>
        {(control) => (
          <textarea
            {...control}
            value={prompt}
            rows={4}
            onChange={(event) => setPrompt(event.target.value)}
          />
        )}
      </Field>
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
            <Field id={`${id}-minute`} label={t("minute")}>
              {(control) => (
                <input
                  {...control}
                  type="number"
                  min={0}
                  max={59}
                  value={minute}
                  onChange={(event) => setMinute(event.target.value)}
                />
              )}
            </Field>
          )}
          {kind === "weekly" && (
            <Field id={`${id}-weekday`} label={t("weekday")}>
              {(control) => (
                <select
                  {...control}
                  value={weekday}
                  onChange={(event) => setWeekday(Number(event.target.value))}
                >
                  {[1, 2, 3, 4, 5, 6, 0].map((day) => (
                    <option key={day} value={day}>
                      {weekdayName(day, locale)}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          )}
          {(kind === "daily" || kind === "weekly") && (
            <Field id={`${id}-time`} label={t("time")}>
              {(control) => (
                <input
                  {...control}
                  type="time"
                  value={time}
                  onChange={(event) => setTime(event.target.value)}
                />
              )}
            </Field>
          )}
          {kind === "cron" && (
            <Field
              id={`${id}-cronExpression`}
              label={t("cronExpression")}
              note={t("cronHint")}
              className="task-cron"
            >
              {(control) => (
                <input
                  {...control}
                  value={expression}
                  spellCheck={false}
                  autoComplete="off"
                  onChange={(event) => setExpression(event.target.value)}
                />
              )}
            </Field>
          )}
        </div>
      </fieldset>
      <div className="task-row">
        <Field id={`${id}-timezoneLabel`} label={t("timezoneLabel")}>
          {(control) => (
            <select
              {...control}
              value={timezone}
              onChange={(event) => setTimezone(event.target.value)}
            >
              {zones.map((zone) => (
                <option key={zone} value={zone}>
                  {zone}
                </option>
              ))}
            </select>
          )}
        </Field>
        <ModelField
          label={t("modelLabel")}
          defaultLabel={t("modelDefault")}
          models={models}
          value={model}
          onChange={setModel}
        />
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
    </RecordForm>
  );
}
