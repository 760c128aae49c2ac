import { type ReactNode, useState } from "react";
import { apiJson } from "../api/http.js";
import { useT } from "../i18n/locale-context.js";
import { settingsMessages } from "../i18n/messages/settings.js";
import { Feedback, LoadState } from "./controls.js";
import { defaultModelChoice, saveDefaultModel } from "./default-model.js";
import { useResource } from "./use-resource.js";

/** `GET /models` entries as this panel reads them (docs/API.md, Models). */
export interface SettingsModel {
  name: string;
  display_name: string | null;
  description: string | null;
  provider: string | null;
  supports_thinking: boolean;
  supports_reasoning_effort: boolean;
  supports_vision: boolean;
  context_window: number | null;
  offline_demo: boolean;
  is_default: boolean;
}

function labelOf(model: SettingsModel): string {
  return model.display_name?.trim() || model.name;
}

/** The configured models with their capabilities; one of them is the default for new chats. */
export function ModelsSection(): ReactNode {
  const t = useT(settingsMessages);
  const { resource, reload } = useResource(() =>
    apiJson<{ models: SettingsModel[] }>("/models").then((list) => list.models),
  );
  const [chosen, setChosen] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);

  if (resource.state !== "ready") {
    return <LoadState failed={resource.state === "failed" ? resource : null} onRetry={reload} />;
  }
  const models = resource.data;
  if (models.length === 0) return <p className="muted">{t("modelsNone")}</p>;
  const current = chosen ?? defaultModelChoice(models);

  const choose = (model: SettingsModel): void => {
    saveDefaultModel(model.name);
    setChosen(model.name);
    setNote(t("defaultSaved", { model: labelOf(model) }));
  };

  return (
    <div className="settings-stack">
      <p className="muted">{t("modelsIntro")}</p>
      <fieldset className="settings-fieldset">
        <legend>{t("defaultForNewChats")}</legend>
        <ul className="settings-list">
          {models.map((model) => (
            <li key={model.name} className="settings-item model-item">
              <label className="model-choice">
                <input
                  type="radio"
                  name="default-model"
                  value={model.name}
                  checked={current === model.name}
                  onChange={() => choose(model)}
                />
                <span className="settings-item-title">{labelOf(model)}</span>
                <code className="small muted">{model.name}</code>
                {model.is_default && <span className="badge">{t("serverDefault")}</span>}
                {model.offline_demo && <span className="badge">{t("offlineDemo")}</span>}
              </label>
              {model.description && <p className="settings-item-text">{model.description}</p>}
              <p className="settings-item-text small muted">
                {model.provider && <span>{t("provider", { provider: model.provider })}</span>}
                {model.context_window !== null && (
                  <span>
                    {t("contextWindow", { tokens: model.context_window.toLocaleString() })}
                  </span>
                )}
                <span>
                  {t("capabilities")}: {capabilitiesOf(model, t).join(", ")}
                </span>
              </p>
            </li>
          ))}
        </ul>
      </fieldset>
      <Feedback error={null} note={note} />
    </div>
  );
}

function capabilitiesOf(
  model: SettingsModel,
  t: (key: "thinking" | "reasoningEffort" | "vision" | "noCapabilities") => string,
): string[] {
  const found: string[] = [];
  if (model.supports_thinking) found.push(t("thinking"));
  if (model.supports_reasoning_effort) found.push(t("reasoningEffort"));
  if (model.supports_vision) found.push(t("vision"));
  return found.length > 0 ? found : [t("noCapabilities")];
}
