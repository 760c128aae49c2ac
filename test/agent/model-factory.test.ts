/**
 * The model factory: `use:` values (Fawn names and the reference's class paths) map to the right
 * LangChain client with the entry's settings; thinking rules; clear errors; keys never shown.
 */
import { ChatAnthropic } from "@langchain/anthropic";
import { ChatOpenAI } from "@langchain/openai";
import { describe, expect, it } from "vitest";
import { createChatModel } from "../../src/agent/models/create-chat-model.js";
import { DEMO_MODEL_NAME } from "../../src/agent/models/demo-model.js";
import { listModels, selectModelConfig } from "../../src/agent/models/list-models.js";
import { providerSettings } from "../../src/agent/models/model-settings.js";
import { findProvider } from "../../src/agent/models/providers.js";
import { ScriptedChatModel } from "../../src/agent/scripted/scripted-chat-model.js";
import { parseConfig } from "../../src/core/config/load-config.js";
import type { ModelConfig } from "../../src/core/config/schema.js";
import { ConfigError } from "../../src/core/errors.js";

const SECRET = "sk-test-do-not-leak-7f3a9c";
const NO_ENV = {};

/** A models: entry validated exactly as config.yaml entries are. */
function entry(fields: Record<string, unknown>): ModelConfig {
  const { config } = parseConfig(
    { models: [{ name: "m", model: "some-model", ...fields }] },
    {
      env: {},
    },
  );
  const model = config.models[0];
  if (!model) throw new Error("no model parsed");
  return model;
}

async function openai(fields: Record<string, unknown>): Promise<ChatOpenAI> {
  const model = await createChatModel(entry(fields), { env: NO_ENV });
  expect(model).toBeInstanceOf(ChatOpenAI);
  return model as ChatOpenAI;
}

describe("use: values", () => {
  it.each([
    ["openai", "openai"],
    ["langchain_openai:ChatOpenAI", "openai"],
    ["langchain_openai.ChatOpenAI", "openai"],
    ["deerflow.models.patched_openai:PatchedChatOpenAI", "openai"],
    ["langchain_deepseek:ChatDeepSeek", "deepseek"],
    ["deerflow.models.patched_deepseek:PatchedChatDeepSeek", "deepseek"],
    ["deerflow.models.vllm_provider:VllmChatModel", "vllm"],
    ["deerflow.models.patched_mimo:PatchedChatMiMo", "mimo"],
    ["deerflow.models.patched_stepfun:PatchedChatStepFun", "stepfun"],
    ["deerflow.models.patched_minimax:PatchedChatMiniMax", "minimax"],
    ["deerflow.models.mindie_provider:MindIEChatModel", "mindie"],
    ["langchain_ollama:ChatOllama", "ollama"],
    ["langchain_google_genai:ChatGoogleGenerativeAI", "gemini"],
    ["langchain_anthropic:ChatAnthropic", "anthropic"],
    ["anthropic", "anthropic"],
    ["scripted", "scripted"],
    ["demo", "demo"],
  ])("%s → %s", (use, provider) => {
    expect(findProvider(use)?.name).toBe(provider);
  });

  it("an unknown use is a ConfigError naming the model and the accepted values", async () => {
    const error = await createChatModel(entry({ use: "acme:ChatAcme" }), { env: NO_ENV }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/Model "m": unknown use "acme:ChatAcme"/);
    expect((error as Error).message).toContain("langchain_openai:ChatOpenAI");
    expect((error as Error).message).toContain("anthropic");
  });

  it("OAuth-only reference classes are refused with the key-based alternative", async () => {
    await expect(
      createChatModel(entry({ use: "deerflow.models.claude_provider:ClaudeChatModel" })),
    ).rejects.toThrow(/not supported.*use: anthropic/);
  });
});

describe("OpenAI-compatible entries", () => {
  it("maps the reference's snake_case settings onto ChatOpenAI", async () => {
    const model = await openai({
      use: "langchain_openai:ChatOpenAI",
      model: "gpt-4o",
      api_key: SECRET,
      base_url: "http://127.0.0.1:9/v1",
      max_tokens: 4096,
      temperature: 0.2,
      timeout: 30,
      max_retries: 1,
      top_p: 0.9,
      seed: 7,
    });
    expect(model.model).toBe("gpt-4o");
    expect(model.maxTokens).toBe(4096);
    expect(model.temperature).toBe(0.2);
    expect(model.timeout).toBe(30_000);
    expect(model.topP).toBe(0.9);
    expect(model.streamUsage).toBe(true);
    expect(model.clientConfig.baseURL).toBe("http://127.0.0.1:9/v1");
    // Unknown provider kwargs pass through to the request body, as Python's model_kwargs do.
    expect(model.modelKwargs).toEqual({ seed: 7 });
  });

  it("api_base is an alias of base_url; provider defaults fill the endpoint", async () => {
    expect(
      (await openai({ use: "openai", api_key: "k", api_base: "http://h/v1" })).clientConfig.baseURL,
    ).toBe("http://h/v1");
    const deepseek = await openai({ use: "langchain_deepseek:ChatDeepSeek", api_key: "k" });
    expect(deepseek.clientConfig.baseURL).toBe("https://api.deepseek.com/v1");
  });

  it("Ollama's native URL gets the /v1 of its OpenAI-compatible API and needs no key", async () => {
    const model = await openai({
      use: "langchain_ollama:ChatOllama",
      base_url: "http://localhost:11434",
    });
    expect(model.clientConfig.baseURL).toBe("http://localhost:11434/v1");
  });

  it("a provider key comes from its environment variable when the entry has none", async () => {
    const model = await createChatModel(entry({ use: "langchain_deepseek:ChatDeepSeek" }), {
      env: { DEEPSEEK_API_KEY: SECRET },
    });
    expect((model as ChatOpenAI).apiKey).toBe(SECRET);
  });

  it("no key for a hosted provider is a ConfigError that says how to set one", async () => {
    await expect(createChatModel(entry({ use: "openai" }), { env: NO_ENV })).rejects.toThrow(
      /Model "m" has no API key.*api_key: \$OPENAI_API_KEY.*OPENAI_API_KEY environment variable/,
    );
  });

  it("extra_body and model_kwargs become request-body fields", async () => {
    const model = await openai({
      use: "openai",
      api_key: "k",
      extra_body: { top_k: 20 },
      model_kwargs: { user: "u" },
    });
    expect(model.modelKwargs).toEqual({ top_k: 20, user: "u" });
  });

  it("a wrongly typed setting names the model and the key", async () => {
    await expect(
      createChatModel(entry({ use: "openai", api_key: "k", extra_body: "nope" }), { env: {} }),
    ).rejects.toThrow(/Model "m": extra_body must be a mapping/);
  });
});

describe("thinking", () => {
  const thinker = {
    use: "openai",
    api_key: "k",
    supports_thinking: true,
    when_thinking_enabled: { extra_body: { thinking: { type: "enabled" } } },
  };

  it("on: when_thinking_enabled is merged", async () => {
    const model = await createChatModel(entry(thinker), { thinkingEnabled: true, env: {} });
    expect((model as ChatOpenAI).modelKwargs).toEqual({ thinking: { type: "enabled" } });
  });

  it("off: thinking is switched off in the dialect that switched it on", async () => {
    const model = await createChatModel(entry(thinker), { thinkingEnabled: false, env: {} });
    expect((model as ChatOpenAI).modelKwargs).toEqual({ thinking: { type: "disabled" } });
  });

  it("off: when_thinking_disabled wins over the automatic switch", () => {
    const settings = providerSettings(
      entry({ ...thinker, when_thinking_disabled: { temperature: 0.1 } }),
      "openai",
      { thinkingEnabled: false },
    );
    expect(settings.temperature).toBe(0.1);
    expect(settings.extra_body).toBeUndefined();
  });

  it("a model without supports_thinking never gets thinking settings", () => {
    const settings = providerSettings(entry({ ...thinker, supports_thinking: false }), "openai", {
      thinkingEnabled: true,
    });
    expect(settings.extra_body).toBeUndefined();
  });

  it("reasoning_effort is only sent when the model supports it", async () => {
    const plain = await createChatModel(entry({ use: "openai", api_key: "k" }), {
      reasoningEffort: "high",
      env: {},
    });
    expect((plain as ChatOpenAI).reasoning).toBeUndefined();
    const capable = await createChatModel(
      entry({ use: "openai", api_key: "k", supports_reasoning_effort: true }),
      { reasoningEffort: "high", env: {} },
    );
    expect((capable as ChatOpenAI).reasoning).toEqual({ effort: "high" });
  });

  it("Anthropic: the thinking shortcut on, {type: disabled} off", async () => {
    const fields = {
      use: "langchain_anthropic:ChatAnthropic",
      model: "claude-sonnet-4-5",
      api_key: SECRET,
      supports_thinking: true,
      thinking: { type: "enabled", budget_tokens: 2048 },
      max_tokens: 8192,
    };
    const on = (await createChatModel(entry(fields), { thinkingEnabled: true })) as ChatAnthropic;
    expect(on).toBeInstanceOf(ChatAnthropic);
    expect(on.thinking).toEqual({ type: "enabled", budget_tokens: 2048 });
    expect(on.maxTokens).toBe(8192);
    const off = (await createChatModel(entry(fields), { thinkingEnabled: false })) as ChatAnthropic;
    expect(off.thinking).toEqual({ type: "disabled" });
  });
});

describe("Anthropic entries", () => {
  it("maps base_url and the key; no key is a ConfigError", async () => {
    const model = (await createChatModel(
      entry({ use: "anthropic", api_key: SECRET, base_url: "http://127.0.0.1:9" }),
      { env: {} },
    )) as ChatAnthropic;
    expect(model.apiUrl).toBe("http://127.0.0.1:9");
    await expect(createChatModel(entry({ use: "anthropic" }), { env: {} })).rejects.toThrow(
      /ANTHROPIC_API_KEY/,
    );
  });
});

describe("keys are never shown", () => {
  it.each([
    ["openai", { use: "openai" }],
    ["anthropic", { use: "anthropic" }],
  ])("%s: the serialized model (what callbacks and traces see) has no key", async (_n, f) => {
    const model = await createChatModel(entry({ ...f, api_key: SECRET }), { env: {} });
    expect(JSON.stringify(model.toJSON())).not.toContain(SECRET);
    expect(JSON.stringify(model.invocationParams({}))).not.toContain(SECRET);
  });

  it("config errors about a model never quote its key", async () => {
    const error = await createChatModel(
      entry({ use: "openai", api_key: SECRET, temperature_bad: 1, stop: 5 }),
      { env: {} },
    ).catch((e: unknown) => e);
    expect(String(error)).toMatch(/stop must be a list of strings/);
    expect(String(error)).not.toContain(SECRET);
  });

  it("listModels redacts keys and marks the default", () => {
    const { config } = parseConfig(
      {
        models: [
          { name: "a", display_name: "A", use: "openai", model: "gpt", api_key: SECRET },
          { name: "b", use: "langchain_anthropic:ChatAnthropic", model: "claude" },
        ],
      },
      { env: {} },
    );
    const listed = listModels(config);
    expect(JSON.stringify(listed)).not.toContain(SECRET);
    expect(listed).toMatchObject([
      { name: "a", display_name: "A", provider: "openai", api_key: "***", is_default: true },
      { name: "b", display_name: "b", provider: "anthropic", api_key: null, is_default: false },
    ]);
    expect(listed.every((model) => !model.offline_demo)).toBe(true);
  });
});

describe("the demo model", () => {
  it("is the only listed model, labelled offline, when none is configured", () => {
    const listed = listModels({ models: [] });
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      name: DEMO_MODEL_NAME,
      offline_demo: true,
      is_default: true,
      api_key: null,
    });
    expect(listed[0]?.display_name).toMatch(/offline/i);
  });

  it("is selected by default without models and by name otherwise", () => {
    expect(selectModelConfig({ models: [] }, undefined).model.name).toBe(DEMO_MODEL_NAME);
    const configured = [entry({ use: "openai", api_key: "k" })];
    expect(selectModelConfig({ models: configured }, undefined).model.name).toBe("m");
    expect(selectModelConfig({ models: configured }, "demo").model.name).toBe(DEMO_MODEL_NAME);
    expect(selectModelConfig({ models: configured }, "nope")).toMatchObject({
      fellBack: true,
      model: { name: "m" },
    });
  });

  it("builds a scripted model from the shipped script", async () => {
    const model = await createChatModel(selectModelConfig({ models: [] }, undefined).model);
    expect(model).toBeInstanceOf(ScriptedChatModel);
    expect((await (model as ScriptedChatModel).script()).rules.length).toBeGreaterThan(0);
  });

  it("use: scripted without a script is a ConfigError", async () => {
    await expect(createChatModel(entry({ use: "scripted" }))).rejects.toThrow(
      /Model "m" uses the scripted model but has no script/,
    );
  });
});
