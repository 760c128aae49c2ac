/**
 * `GET /api/models` and `GET /api/models/{name}` on a real gateway over HTTP: the configured
 * models with their display fields (first = default), the offline demo labelled as such when it
 * is the default, and never a key or a URL credential — even when the key comes from `$ENV` and
 * the base URL carries userinfo. The routes sit behind the same auth as every other `/api` route.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createFawn, type Fawn } from "../../src/app/create-fawn.js";
import { createFawnGateway } from "../../src/app/fawn-gateway.js";
import { parseConfig } from "../../src/core/config/load-config.js";
import { createLogger } from "../../src/core/logger.js";
import type { AuthProvider } from "../../src/gateway/auth/auth-provider.js";
import { type GatewayServer, startGatewayServer } from "../../src/gateway/server.js";
import { HeaderAuthProvider } from "./helpers/header-auth.js";

const SECRET_KEY = "sk-live-0123456789abcdef-do-not-show";
const URL_USER = "proxyuser";
const URL_PASSWORD = "hunter2-url-password";

interface ApiModel {
  name: string;
  model: string;
  display_name: string;
  description: string | null;
  provider: string;
  supports_thinking: boolean;
  supports_reasoning_effort: boolean;
  supports_vision: boolean;
  context_window: number | null;
  offline_demo: boolean;
  is_default: boolean;
}

interface ModelsAnswer {
  models: ApiModel[];
  token_usage: { enabled: boolean };
}

interface Served {
  apiUrl: string;
  fawn: Fawn;
  close(): Promise<void>;
}

const opened: Served[] = [];

/** A gateway over memory stores; `env` is what `$VAR` references in the config expand from. */
async function serve(
  raw: Record<string, unknown>,
  env: Record<string, string> = {},
  auth?: AuthProvider,
): Promise<Served> {
  const home = await mkdtemp(join(tmpdir(), "fawn-models-"));
  const { config } = parseConfig(
    { database: { url: "memory:" }, sandbox: { use: "local" }, ...raw },
    { env: { FAWN_HOME: home, ...env }, cwd: home },
  );
  const logger = createLogger({ level: process.env.FAWN_TEST_LOG_LEVEL ?? "silent" });
  const fawn = await createFawn({
    config,
    logger,
    agentFactory: () => {
      throw new Error("no runs in this suite");
    },
  });
  const app = createFawnGateway(fawn, { logger, ...(auth ? { auth } : {}) });
  const server: GatewayServer = await startGatewayServer(app, { port: 0, host: "127.0.0.1" });
  const served = {
    apiUrl: `${server.url}/api`,
    fawn,
    async close() {
      await server.close();
      await fawn.close();
      await rm(home, { recursive: true, force: true });
    },
  };
  opened.push(served);
  return served;
}

afterEach(async () => {
  for (const served of opened.splice(0)) await served.close();
});

describe("GET /api/models", () => {
  it("lists the offline demo as the default when no model is configured", async () => {
    const { apiUrl } = await serve({});
    const response = await fetch(`${apiUrl}/models`);
    expect(response.status).toBe(200);
    const answer = (await response.json()) as ModelsAnswer;
    expect(answer.token_usage).toEqual({ enabled: false });
    expect(answer.models).toHaveLength(1);
    const [demo] = answer.models;
    expect(demo).toMatchObject({
      name: "demo",
      provider: "demo",
      offline_demo: true,
      is_default: true,
      supports_thinking: false,
      supports_vision: false,
    });
    expect(demo?.display_name.toLowerCase()).toContain("offline");
    expect(demo?.description?.toLowerCase()).toContain("offline");
  });

  it("shows configured models in order, first = default, without keys or URL credentials", async () => {
    const { apiUrl, fawn } = await serve(
      {
        token_usage: { enabled: true },
        models: [
          {
            name: "gpt-main",
            display_name: "GPT main",
            description: "The main model",
            use: "langchain_openai:ChatOpenAI",
            model: "gpt-4o",
            api_key: "$FAWN_TEST_MODELS_KEY",
            base_url: `https://${URL_USER}:${URL_PASSWORD}@llm.example.test/v1`,
            supports_vision: true,
            context_window: 128000,
          },
          {
            name: "claude",
            use: "anthropic",
            model: "claude-sonnet",
            api_key: SECRET_KEY,
            supports_thinking: true,
            supports_reasoning_effort: true,
            when_thinking_enabled: { thinking: { type: "enabled", budget_tokens: 1024 } },
          },
        ],
      },
      { FAWN_TEST_MODELS_KEY: SECRET_KEY },
    );
    // The key really was expanded into the running config, so its absence below means something.
    expect(fawn.config.models[0]?.api_key).toBe(SECRET_KEY);

    const response = await fetch(`${apiUrl}/models`);
    expect(response.status).toBe(200);
    const text = await response.text();
    for (const secret of [SECRET_KEY, URL_USER, URL_PASSWORD, "llm.example.test", "api_key"]) {
      expect(text).not.toContain(secret);
    }
    const answer = JSON.parse(text) as ModelsAnswer;
    expect(answer.token_usage).toEqual({ enabled: true });
    expect(answer.models).toEqual([
      {
        name: "gpt-main",
        model: "gpt-4o",
        display_name: "GPT main",
        description: "The main model",
        provider: "openai",
        supports_thinking: false,
        supports_reasoning_effort: false,
        supports_vision: true,
        context_window: 128000,
        offline_demo: false,
        is_default: true,
      },
      {
        name: "claude",
        model: "claude-sonnet",
        display_name: "claude",
        description: null,
        provider: "anthropic",
        supports_thinking: true,
        supports_reasoning_effort: true,
        supports_vision: false,
        context_window: null,
        offline_demo: false,
        is_default: false,
      },
    ]);

    const one = await fetch(`${apiUrl}/models/gpt-main`);
    expect(one.status).toBe(200);
    const oneText = await one.text();
    expect(oneText).not.toContain(SECRET_KEY);
    expect(oneText).not.toContain(URL_PASSWORD);
    expect(JSON.parse(oneText)).toEqual(answer.models[0]);

    // The LangGraph-prefixed mount answers the same.
    const prefixed = await fetch(`${apiUrl}/langgraph/models`);
    expect(((await prefixed.json()) as ModelsAnswer).models.map((m) => m.name)).toEqual([
      "gpt-main",
      "claude",
    ]);
  });

  it("answers 404 with a hint for an unknown model, and the demo by name for runs that ask for it", async () => {
    const { apiUrl } = await serve({
      models: [{ name: "only", use: "openai", model: "gpt-4o", api_key: "x" }],
    });
    const missing = await fetch(`${apiUrl}/models/nope`);
    expect(missing.status).toBe(404);
    const body = (await missing.json()) as { detail: string; code: string };
    expect(body.code).toBe("not_found");
    expect(body.detail).toContain("GET /api/models");

    const demo = await fetch(`${apiUrl}/models/demo`);
    expect(demo.status).toBe(200);
    expect(await demo.json()).toMatchObject({
      name: "demo",
      offline_demo: true,
      is_default: false,
    });
  });

  it("goes through the same auth as the other /api routes", async () => {
    const { apiUrl } = await serve({}, {}, new HeaderAuthProvider());
    for (const path of ["/models", "/models/demo"]) {
      const anonymous = await fetch(`${apiUrl}${path}`);
      expect(anonymous.status).toBe(401);
      const signedIn = await fetch(`${apiUrl}${path}`, { headers: { "x-test-user": "alice" } });
      expect(signedIn.status).toBe(200);
    }
  });
});
