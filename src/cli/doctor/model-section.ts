import { demoModelConfig } from "../../agent/models/demo-model.js";
import { findProvider, resolveProvider } from "../../agent/models/providers.js";
import type { Env } from "../../core/config/env-expansion.js";
import type { FawnConfig } from "../../core/config/schema.js";
import { describeError } from "../../core/errors.js";
import type { DoctorItem, DoctorSection } from "./doctor-report.js";

/**
 * Every configured model (first = default) with its provider. An unknown `use` is an error (a
 * run with that model cannot start); a missing key is a warning (the provider will refuse).
 */
export function modelSection(config: Pick<FawnConfig, "models">, env: Env): DoctorSection {
  if (config.models.length === 0) {
    const demo = demoModelConfig();
    return {
      title: "models",
      items: [
        {
          status: "ok",
          name: demo.name,
          detail: "built-in offline demo (default): replays a scripted session, no key needed",
          hint: "add a real model under models: (name, use, model, api_key)",
        },
      ],
    };
  }
  return {
    title: "models",
    items: config.models.map((model, index) => describeModelEntry(model, index === 0, env)),
  };
}

function describeModelEntry(
  model: FawnConfig["models"][number],
  isDefault: boolean,
  env: Env,
): DoctorItem {
  const label = `${model.name}${isDefault ? " (default)" : ""}`;
  const provider = findProvider(model.use);
  if (provider === null) {
    let problem = `use "${model.use}" is not a Fawn provider`;
    try {
      resolveProvider(model.name, model.use);
    } catch (error) {
      problem = describeError(error);
    }
    return {
      status: "fail",
      name: label,
      detail: problem,
      hint: "use langchain_openai:ChatOpenAI with base_url for any OpenAI-compatible endpoint",
    };
  }
  const detail = `${provider.name} · ${model.model}`;
  const keyEnv = provider.apiKeyEnv;
  const hasKey = model.api_key !== undefined || (keyEnv !== undefined && Boolean(env[keyEnv]));
  if (provider.kind !== "scripted" && !provider.keyless && !hasKey) {
    return {
      status: "warn",
      name: label,
      detail: `${detail}: no API key`,
      hint: `set api_key in the entry (e.g. api_key: $${keyEnv ?? "API_KEY"})${keyEnv ? ` or ${keyEnv}` : ""}`,
    };
  }
  return { status: "ok", name: label, detail };
}
