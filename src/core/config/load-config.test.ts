import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError } from "../errors.js";
import { loadConfig, parseConfig } from "./load-config.js";

let cwd: string;

beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), "fawn-config-"));
});

afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
});

async function writeConfig(relativePath: string, yaml: string): Promise<string> {
  const path = join(cwd, relativePath);
  await mkdir(join(path, ".."), { recursive: true });
  await writeFile(path, yaml);
  return path;
}

async function loadError(promise: Promise<unknown>): Promise<ConfigError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ConfigError)) throw new Error(`expected a ConfigError, got ${error}`);
  return error;
}

function parseError(raw: unknown): ConfigError {
  try {
    parseConfig(raw, { env: {}, cwd: "/srv", source: "/srv/config.yaml" });
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected a ConfigError, got a config");
}

describe("loadConfig sources", () => {
  it("runs on defaults when there is no file", async () => {
    const { config, warnings, source } = await loadConfig({ env: {}, cwd });
    expect(source).toBeNull();
    expect(warnings).toEqual([]);
    const home = join(cwd, ".fawn");
    expect(config).toEqual({
      home,
      log_level: "info",
      agents_api: { enabled: false },
      skill_scan: { enabled: true },
      suggestions: { enabled: true, max_suggestions: 3, model_name: null },
      input_polish: { enabled: true, max_chars: 4000, model_name: null },
      models: [],
      plugins: [],
      crons: {
        enabled: true,
        poll_interval_seconds: 10,
        lease_seconds: 60,
        max_firings_per_poll: 100,
      },
      tool_groups: [],
      tools: [],
      sandbox: {
        use: "auto",
        allow_host_bash: false,
        mounts: [],
        bash_output_max_chars: 20_000,
        read_file_output_max_chars: 50_000,
        ls_output_max_chars: 20_000,
        bash_command_timeout: 600,
      },
      skills: {
        container_path: "/mnt/skills",
        deferred_discovery: false,
        install: {
          max_archive_bytes: 8_388_608,
          max_total_bytes: 8_388_608,
          max_files: 512,
          max_skill_md_bytes: 262_144,
          max_compression_ratio: 100,
        },
      },
      memory: {
        enabled: true,
        mode: "middleware",
        injection_enabled: true,
        debounce_seconds: 30,
        max_facts: 100,
        fact_confidence_threshold: 0.7,
        max_injection_tokens: 2000,
        shutdown_flush_timeout_seconds: 30,
        fact_half_life_days: 90,
        manager_class: "deermem",
        backend_config: {},
      },
      database: { url: `sqlite:${home}/fawn.db` },
      metrics: { enabled: true },
      tracing: {
        otlp_headers: {},
        service_name: "fawn",
        sample_ratio: 1,
        capture_content: false,
        langsmith: { enabled: false, project: "fawn", endpoint: "https://api.smith.langchain.com" },
        langfuse: { enabled: false, host: "https://cloud.langfuse.com" },
      },
      stream_bridge: { queue_maxsize: 256, stream_ttl_seconds: 86_400 },
      store: { ttl_sweep_interval_seconds: 60 },
      runtime: {
        lease_seconds: 30,
        grace_seconds: 10,
        heartbeat_enabled: true,
        shutdown_timeout_seconds: 5,
        recovery_interval_seconds: 1,
        workers: 0,
        max_running_runs: 0,
      },
      server: {
        port: 2026,
        host: "127.0.0.1",
        headers_timeout_seconds: 30,
        request_timeout_seconds: 120,
        keep_alive_timeout_seconds: 5,
        allow_truncate: false,
      },
      auth: {
        mode: "disabled",
        allow_registration: false,
        session_ttl_days: 7,
        secure_cookies: "auto",
        trust_proxy: false,
        login_max_failures: 5,
        login_max_failures_per_account: 20,
        login_max_failures_per_address: 100,
        login_lockout_seconds: 900,
        admins: [],
      },
      uploads: {
        max_files: 10,
        max_file_size: 52_428_800,
        max_total_size: 104_857_600,
        auto_convert_documents: false,
      },
    });
  });

  it("reads FAWN_CONFIG relative to cwd", async () => {
    const path = await writeConfig("conf/fawn.yaml", "server: { port: 3000 }\n");
    await writeConfig("config.yaml", "server: { port: 4000 }\n");
    const { config, source } = await loadConfig({ env: { FAWN_CONFIG: "conf/fawn.yaml" }, cwd });
    expect(source).toBe(path);
    expect(config.server.port).toBe(3000);
  });

  it("fails when FAWN_CONFIG names a missing file", async () => {
    const error = await loadError(loadConfig({ env: { FAWN_CONFIG: "nope.yaml" }, cwd }));
    expect(error.message).toContain(join(cwd, "nope.yaml"));
    expect(error.message).toContain("FAWN_CONFIG");
  });

  it("prefers $FAWN_HOME/config.yaml over ./config.yaml", async () => {
    const path = await writeConfig("data/config.yaml", "server: { port: 3001 }\n");
    await writeConfig("config.yaml", "server: { port: 4001 }\n");
    const { config, source } = await loadConfig({ env: { FAWN_HOME: "data" }, cwd });
    expect(source).toBe(path);
    expect(config.home).toBe(join(cwd, "data"));
    expect(config.server.port).toBe(3001);
    expect(config.database.url).toBe(`sqlite:${join(cwd, "data", "fawn.db")}`);
  });

  it("falls back to ./config.yaml", async () => {
    const path = await writeConfig("config.yaml", "server: { port: 4002 }\n");
    const { config, source } = await loadConfig({ env: {}, cwd });
    expect(source).toBe(path);
    expect(config.server.port).toBe(4002);
  });

  it("treats an empty file as defaults", async () => {
    await writeConfig("config.yaml", "# nothing yet\n");
    const { config } = await loadConfig({ env: {}, cwd });
    expect(config.server.port).toBe(2026);
  });

  it("reports YAML syntax errors with the file name", async () => {
    const path = await writeConfig("config.yaml", "server: [port: 1\n");
    const error = await loadError(loadConfig({ env: {}, cwd }));
    expect(error.message).toContain(`Cannot parse ${path}`);
  });

  it("reports an unreadable config path", async () => {
    await mkdir(join(cwd, "config.yaml"));
    const error = await loadError(loadConfig({ env: {}, cwd }));
    expect(error.message).toContain("Cannot read config file");
  });
});

describe("config shape", () => {
  it("accepts a reference-shaped config without warnings, keeping provider kwargs", async () => {
    await writeConfig(
      "config.yaml",
      `config_version: 34
log_level: info
models:
  - name: gpt-4
    display_name: GPT-4
    use: langchain_openai:ChatOpenAI
    model: gpt-4
    api_key: $OPENAI_API_KEY
    base_url: https://api.openai.com/v1
    max_tokens: 4096
    temperature: 0.7
    supports_vision: true
    when_thinking_enabled: { extra_body: { thinking: { type: enabled } } }
    stream_usage: true
    default_headers: { X-Team: fawn }
tool_groups: [{ name: web }, { name: "file:read" }]
tools:
  - { name: web_search, group: web, use: deerflow.community.ddg_search.tools:web_search_tool, max_results: 5 }
sandbox:
  use: deerflow.sandbox.local:LocalSandboxProvider
  allow_host_bash: true
  mounts: [{ host_path: /data, container_path: /mnt/data, read_only: true }]
title: { enabled: true, max_words: 6 }
memory: { enabled: false }
uploads: { max_files: 10 }
`,
    );
    const { config, warnings } = await loadConfig({ env: { OPENAI_API_KEY: "sk-test" }, cwd });
    expect(warnings).toEqual([]);
    const [model] = config.models;
    expect(model).toMatchObject({
      name: "gpt-4",
      api_key: "sk-test",
      supports_vision: true,
      supports_thinking: false,
      stream_usage: true,
      default_headers: { "X-Team": "fawn" },
    });
    expect(config.tools[0]).toMatchObject({ name: "web_search", max_results: 5 });
    expect(config.sandbox.use).toBe("local");
    expect(config.sandbox.mounts).toEqual([
      { host_path: "/data", container_path: "/mnt/data", read_only: true },
    ]);
    expect(config.title).toEqual({ enabled: true, max_words: 6 });
  });

  it("reports unknown keys by dotted path and still loads", () => {
    const { config, warnings } = parseConfig(
      {
        colour: "blue",
        runtime: { lease_secondz: 60, grace_seconds: 3 },
        sandbox: { mounts: [{ host_path: "/a", container_path: "/b", mode: "ro" }] },
        auth: { mode: "local", jwt: "x" },
      },
      { env: {}, cwd: "/srv" },
    );
    expect(warnings.sort()).toEqual([
      "auth.jwt: unknown key, ignored",
      "colour: unknown key, ignored",
      "runtime.lease_secondz: unknown key, ignored",
      "sandbox.mounts[0].mode: unknown key, ignored",
    ]);
    expect(config.runtime.grace_seconds).toBe(3);
    expect(config.runtime.lease_seconds).toBe(30);
    expect(config.auth.mode).toBe("local");
    expect(config).not.toHaveProperty("colour");
  });

  it("warns about an unset $VAR and leaves the value absent", () => {
    const { config, warnings } = parseConfig(
      { models: [{ name: "m", use: "openai", model: "gpt", api_key: "$NOT_SET_KEY" }] },
      { env: {}, cwd: "/srv" },
    );
    expect(warnings).toEqual(["models[0].api_key: environment variable NOT_SET_KEY is not set"]);
    expect(config.models[0]?.api_key).toBeUndefined();
  });

  it.each([
    ["runtime.lease_seconds", { runtime: { lease_seconds: 3 } }, ">=5"],
    ["runtime.grace_seconds", { runtime: { grace_seconds: -1 } }, ">=0"],
    ["server.port", { server: { port: "abc" } }, "number"],
    ["server.port", { server: { port: 70_000 } }, "65535"],
    ["sandbox.use", { sandbox: { use: "docker" } }, "auto"],
    ["auth.mode", { auth: { mode: "oauth" } }, "disabled"],
    ["stream_bridge.queue_maxsize", { stream_bridge: { queue_maxsize: 0 } }, ">=1"],
    ["models[0].use", { models: [{ name: "a", model: "x" }] }, ""],
    [
      "models[1].name",
      {
        models: [
          { name: "a", use: "u", model: "x" },
          { name: "a", use: "u", model: "y" },
        ],
      },
      "duplicate",
    ],
    ["sandbox", { sandbox: "local" }, "object"],
  ])("rejects a bad %s with a ConfigError naming it", (path, raw, problem) => {
    const { message } = parseError(raw);
    expect(message).toContain("/srv/config.yaml");
    expect(message).toContain(`${path}: `);
    expect(message).toContain(problem);
  });

  it("mentions unknown keys as a hint when the config is invalid", () => {
    expect(() =>
      parseConfig({ runtime: { lease_seconds: 1, heartbeat: true } }, { env: {}, cwd: "/srv" }),
    ).toThrow(/runtime\.lease_seconds: .*possibly misspelt: runtime\.heartbeat/);
  });

  it("rejects a top level that is not a mapping", () => {
    expect(() => parseConfig(["a"], { env: {}, cwd: "/srv" })).toThrow(ConfigError);
  });
});

describe("environment overrides", () => {
  const raw = {
    server: { port: 3000, host: "0.0.0.0" },
    auth: { mode: "local" },
    database: { url: "sqlite:/var/fawn.db" },
    stream_bridge: { redis_url: "redis://file:6379" },
  };

  it("beat the file", () => {
    const { config } = parseConfig(raw, {
      env: {
        FAWN_PORT: "8080",
        FAWN_AUTH: "disabled",
        FAWN_DATABASE_URL: "postgres://db/fawn",
        FAWN_REDIS_URL: "redis://env:6379",
      },
      cwd: "/srv",
    });
    expect(config.server).toEqual({
      port: 8080,
      host: "0.0.0.0",
      headers_timeout_seconds: 30,
      request_timeout_seconds: 120,
      keep_alive_timeout_seconds: 5,
      allow_truncate: false,
    });
    expect(config.auth.mode).toBe("disabled");
    expect(config.database.url).toBe("postgres://db/fawn");
    expect(config.stream_bridge.redis_url).toBe("redis://env:6379");
  });

  it("ignore empty values", () => {
    const { config } = parseConfig(raw, { env: { FAWN_PORT: "", FAWN_AUTH: " " }, cwd: "/srv" });
    expect(config.server.port).toBe(3000);
    expect(config.auth.mode).toBe("local");
  });

  it("resolve FAWN_HOME against cwd and derive the default database", () => {
    const { config } = parseConfig({}, { env: { FAWN_HOME: "state" }, cwd: "/srv" });
    expect(config.home).toBe("/srv/state");
    expect(config.database.url).toBe("sqlite:/srv/state/fawn.db");
  });

  it.each([
    ["FAWN_PORT", "http"],
    ["FAWN_PORT", "0"],
    ["FAWN_PORT", "65536"],
    ["FAWN_PORT", "80.5"],
    ["FAWN_AUTH", "oauth"],
  ])("reject a bad %s=%s naming the variable", (name, value) => {
    expect(() => parseConfig({}, { env: { [name]: value }, cwd: "/srv" })).toThrow(
      new RegExp(`^${name} must be`),
    );
  });
});
