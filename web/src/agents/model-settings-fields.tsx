import type { ReactNode } from "react";
import type { Translate } from "../i18n/locale-context.js";
import type { agentsMessages } from "../i18n/messages/agents.js";
import { Field } from "../pages/record-form.js";
import { type AgentModelSettings, REASONING_EFFORTS, type ReasoningEffort } from "./agents-api.js";

type AgentsKey = keyof (typeof agentsMessages)["en"];

/** The form's text for each setting; empty means "the model's own". */
export interface ModelSettingsDraft {
  temperature: string;
  maxTokens: string;
  thinking: "" | "on" | "off";
  effort: "" | ReasoningEffort;
}

export function draftOf(
  settings: AgentModelSettings | null,
  thinking: boolean | null,
  effort: ReasoningEffort | null,
): ModelSettingsDraft {
  return {
    temperature: settings?.temperature == null ? "" : String(settings.temperature),
    maxTokens: settings?.max_tokens == null ? "" : String(settings.max_tokens),
    thinking: thinking === null ? "" : thinking ? "on" : "off",
    effort: effort ?? "",
  };
}

/** The API's fields for a draft, or the key of what is wrong with it. */
export function settingsOf(draft: ModelSettingsDraft):
  | {
      model_settings: AgentModelSettings | null;
      thinking_enabled: boolean | null;
      reasoning_effort: ReasoningEffort | null;
    }
  | { problem: "temperatureRange" | "maxTokensRange" } {
  const temperature = draft.temperature.trim() === "" ? null : Number(draft.temperature);
  if (temperature !== null && !(temperature >= 0 && temperature <= 2))
    return { problem: "temperatureRange" };
  const maxTokens = draft.maxTokens.trim() === "" ? null : Number(draft.maxTokens);
  if (
    maxTokens !== null &&
    !(Number.isInteger(maxTokens) && maxTokens >= 1 && maxTokens <= 200_000)
  )
    return { problem: "maxTokensRange" };
  const settings: AgentModelSettings = {
    ...(temperature === null ? {} : { temperature }),
    ...(maxTokens === null ? {} : { max_tokens: maxTokens }),
  };
  return {
    model_settings: Object.keys(settings).length === 0 ? null : settings,
    thinking_enabled: draft.thinking === "" ? null : draft.thinking === "on",
    reasoning_effort: draft.effort === "" ? null : draft.effort,
  };
}

interface Props {
  id: string;
  draft: ModelSettingsDraft;
  onChange: (draft: ModelSettingsDraft) => void;
  t: Translate<AgentsKey>;
}

/** Temperature, output limit, thinking and reasoning effort; blank keeps the model's own. */
export function ModelSettingsFields({ id, draft, onChange, t }: Props): ReactNode {
  return (
    <fieldset className="field">
      <legend>{t("modelSettings")}</legend>
      <div className="agent-settings">
        <Field id={`${id}-temperature`} label={t("temperature")}>
          {(control) => (
            <input
              {...control}
              type="number"
              min={0}
              max={2}
              step={0.1}
              placeholder={t("settingDefault")}
              value={draft.temperature}
              onChange={(event) => onChange({ ...draft, temperature: event.target.value })}
            />
          )}
        </Field>
        <Field id={`${id}-maxTokens`} label={t("maxTokens")}>
          {(control) => (
            <input
              {...control}
              type="number"
              min={1}
              max={200000}
              step={1}
              placeholder={t("settingDefault")}
              value={draft.maxTokens}
              onChange={(event) => onChange({ ...draft, maxTokens: event.target.value })}
            />
          )}
        </Field>
        <Field id={`${id}-thinking`} label={t("thinking")}>
          {(control) => (
            <select
              {...control}
              value={draft.thinking}
              onChange={(event) =>
                onChange({
                  ...draft,
                  thinking: event.target.value as ModelSettingsDraft["thinking"],
                })
              }
            >
              <option value="">{t("settingDefault")}</option>
              <option value="on">{t("thinkingOn")}</option>
              <option value="off">{t("thinkingOff")}</option>
            </select>
          )}
        </Field>
        <Field id={`${id}-effort`} label={t("reasoningEffort")}>
          {(control) => (
            <select
              {...control}
              value={draft.effort}
              onChange={(event) =>
                onChange({ ...draft, effort: event.target.value as ModelSettingsDraft["effort"] })
              }
            >
              <option value="">{t("settingDefault")}</option>
              {REASONING_EFFORTS.map((effort) => (
                <option key={effort} value={effort}>
                  {t(`effort_${effort}`)}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
    </fieldset>
  );
}
