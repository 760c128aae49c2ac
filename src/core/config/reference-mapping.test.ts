import { describe, expect, it } from "vitest";
import { ConfigError } from "../errors.js";
import { parseConfig } from "./load-config.js";

const FILE = "/srv/deerflow/config.yaml";

function load(raw: Record<string, unknown>, env: Record<string, string> = {}) {
  return parseConfig(raw, { env, cwd: "/work", source: FILE });
}

function loadError(raw: Record<string, unknown>): ConfigError {
  try {
    load(raw);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

describe("reference keys mapped onto Fawn's settings", () => {
  it("run_ownership becomes the runtime lease settings", () => {
    const { config, findings, warnings } = load({
      run_ownership: { lease_seconds: 45, grace_seconds: 4, heartbeat_enabled: false },
    });
    expect(config.runtime).toMatchObject({
      lease_seconds: 45,
      grace_seconds: 4,
      heartbeat_enabled: false,
    });
    expect(findings.map((f) => [f.kind, f.path, f.message])).toEqual([
      ["mapped", "run_ownership.lease_seconds", "mapped onto runtime.lease_seconds"],
      ["mapped", "run_ownership.grace_seconds", "mapped onto runtime.grace_seconds"],
      [
        "mapped",
        "run_ownership.heartbeat_enabled",
        expect.stringMatching(
          /^mapped onto runtime\.heartbeat_enabled \(false: no cross-process cancel/,
        ),
      ],
    ]);
    expect(warnings).toContain(
      `run_ownership.lease_seconds: mapped onto runtime.lease_seconds (${FILE})`,
    );
  });

  it("lets Fawn's own key win and says so", () => {
    const { config, findings } = load({
      runtime: { lease_seconds: 60 },
      run_ownership: { lease_seconds: 45 },
    });
    expect(config.runtime.lease_seconds).toBe(60);
    expect(findings[0]?.message).toBe("ignored: runtime.lease_seconds is set too and wins");
  });

  it("names a bad mapped value as the file wrote it", () => {
    const { message } = loadError({ run_ownership: { lease_seconds: "soon" } });
    expect(message).toContain(FILE);
    expect(message).toContain("run_ownership.lease_seconds (read as runtime.lease_seconds): ");
    expect(message).toContain("expected number");
  });

  it("a leftover key of a mapped section is judged on its own", () => {
    const { findings } = load({ run_ownership: { lease_seconds: 30, lease_secs: 3 } });
    expect(findings).toContainEqual({
      kind: "unknown",
      path: "run_ownership.lease_secs",
      message: "unknown key, ignored",
      file: FILE,
    });
  });

  it("scheduler becomes crons; its other keys are unsupported with what to do", () => {
    const { config, findings } = load({
      scheduler: {
        enabled: false,
        multi_instance: false,
        poll_interval_seconds: 5,
        lease_seconds: 120,
        max_concurrent_runs: 3,
        min_once_delay_seconds: 60,
      },
    });
    expect(config.crons).toMatchObject({
      enabled: false,
      poll_interval_seconds: 5,
      lease_seconds: 120,
    });
    const kinds = Object.fromEntries(findings.map((f) => [f.path, f.kind]));
    expect(kinds).toEqual({
      "scheduler.enabled": "mapped",
      "scheduler.poll_interval_seconds": "mapped",
      "scheduler.lease_seconds": "mapped",
      "scheduler.multi_instance": "unsupported",
      "scheduler.max_concurrent_runs": "unsupported",
      "scheduler.min_once_delay_seconds": "unsupported",
    });
    const maxRuns = findings.find((f) => f.path === "scheduler.max_concurrent_runs");
    expect(maxRuns?.message).toMatch(/^not supported by Fawn, ignored: .*max_firings_per_poll/);
  });

  it("database.backend sqlite + sqlite_dir becomes a SQLite URL beside the config file", () => {
    const { config, findings } = load({
      database: { backend: "sqlite", sqlite_dir: ".deer-flow/data", pool_recycle: 300 },
    });
    expect(config.database.url).toBe("sqlite:/srv/deerflow/.deer-flow/data/fawn.db");
    expect(config.database.pool_recycle).toBe(300);
    expect(findings.map((f) => f.path)).toEqual(["database.backend", "database.sqlite_dir"]);
    expect(findings.every((f) => f.kind === "mapped")).toBe(true);
  });

  it("database.backend postgres takes postgres_url, drops a Python driver and hides the password", () => {
    const { config, findings } = load(
      { database: { backend: "postgres", postgres_url: "$DATABASE_URL" } },
      { DATABASE_URL: "postgresql+asyncpg://fawn:secret@db:5432/deerflow" },
    );
    expect(config.database.url).toBe("postgresql://fawn:secret@db:5432/deerflow");
    expect(findings.map((f) => f.message).join(" ")).not.toContain("secret");
  });

  it("database.backend memory is the in-memory stores", () => {
    expect(load({ database: { backend: "memory" } }).config.database.url).toBe("memory:");
  });

  it("database.url and FAWN_DATABASE_URL win over backend", () => {
    expect(load({ database: { url: "sqlite:/x.db", backend: "memory" } }).config.database.url).toBe(
      "sqlite:/x.db",
    );
    const fromEnv = load(
      { database: { backend: "memory" } },
      { FAWN_DATABASE_URL: "sqlite:/env.db" },
    );
    expect(fromEnv.config.database.url).toBe("sqlite:/env.db");
    expect(fromEnv.findings[0]?.message).toBe("ignored: FAWN_DATABASE_URL is set and wins");
  });

  it.each([
    [{ backend: "postgres" }, "database.postgres_url"],
    [{ backend: "mysql" }, "database.backend"],
    [{ pool_size: "ten" }, "database.pool_size"],
  ])("a bad database value %j names the key and the file", (database, key) => {
    const { message } = loadError({ database });
    expect(message).toContain(key);
    expect(message).toContain(FILE);
  });

  it("the database checkpoint tuning keys are unsupported, by name", () => {
    const { findings } = load({
      database: {
        checkpoint_channel_mode: "full",
        checkpoint_delta: { snapshot_frequency: 10 },
        checkpoint_graph_cache: { accessor_graph_max: 64 },
      },
    });
    expect(findings.map((f) => [f.kind, f.path])).toEqual([
      ["unsupported", "database.checkpoint_channel_mode"],
      ["unsupported", "database.checkpoint_delta"],
      ["unsupported", "database.checkpoint_graph_cache"],
    ]);
  });

  it("auth.local.allow_registration is auth.allow_registration; oidc is unsupported", () => {
    const { config, findings } = load({
      auth: { local: { allow_registration: true }, oidc: { enabled: true } },
    });
    expect(config.auth.allow_registration).toBe(true);
    expect(findings.map((f) => [f.kind, f.path])).toEqual([
      ["mapped", "auth.local.allow_registration"],
      ["unsupported", "auth.oidc"],
    ]);
  });

  it("stream_bridge.type picks the bridge", () => {
    const memory = load({ stream_bridge: { type: "memory", redis_url: "redis://r:6379" } });
    expect(memory.config.stream_bridge.redis_url).toBeUndefined();
    const redis = load({ stream_bridge: { type: "redis", redis_url: "redis://r:6379" } });
    expect(redis.config.stream_bridge.redis_url).toBe("redis://r:6379");
    expect(loadError({ stream_bridge: { type: "kafka" } }).message).toContain("stream_bridge.type");
  });

  it("an unported reference sandbox class falls back to auto, named as unsupported", () => {
    const { config, findings } = load({
      sandbox: { use: "deerflow.community.boxlite:BoxliteProvider", memory_mib: 1024 },
    });
    expect(config.sandbox.use).toBe("auto");
    expect(findings.map((f) => [f.kind, f.path])).toEqual([
      ["unsupported", "sandbox.use"],
      ["unsupported", "sandbox.memory_mib"],
    ]);
  });
});

describe("log_level", () => {
  it.each([
    ["warning", "warn"],
    ["critical", "fatal"],
    ["INFO", "info"],
    ["debug", "debug"],
  ])("%s is the logger's %s", (given, level) => {
    expect(load({ log_level: given }).config.log_level).toBe(level);
  });

  it("an unknown level names the key and the levels", () => {
    const { message } = loadError({ log_level: "loud" });
    expect(message).toContain("log_level: expected one of trace, debug, info, warn");
  });

  it("logging.enhance keys are unsupported, each by name", () => {
    const { findings } = load({ logging: { enhance: { enabled: false, format: "text" } } });
    expect(findings.map((f) => [f.kind, f.path])).toEqual([
      ["unsupported", "logging.enhance.enabled"],
      ["unsupported", "logging.enhance.format"],
    ]);
  });
});

describe("models", () => {
  it.each([[null], [[]]])("models: %j falls back to the demo model with a how-to", (models) => {
    const { config, warnings } = load({ models });
    expect(config.models).toEqual([]);
    expect(warnings).toContainEqual(
      expect.stringMatching(
        /^models: no model configured in .*offline demo.*Add one under models:/,
      ),
    );
  });
});

describe("unsupported and unknown keys", () => {
  it("reference-only sections are named as unsupported, other keys as unknown", () => {
    const { findings, warnings } = load({
      mcp_tasks: { enabled: false },
      channels: { feishu: { enabled: false } },
      tool_search: { enabled: false },
      colour: "blue",
    });
    expect(findings.map((f) => [f.kind, f.path])).toEqual([
      ["unsupported", "mcp_tasks"],
      ["unsupported", "channels"],
      ["unsupported", "tool_search"],
      ["unknown", "colour"],
    ]);
    expect(warnings).toContain(`colour: unknown key, ignored (${FILE})`);
    expect(warnings.find((w) => w.startsWith("mcp_tasks:"))).toMatch(
      /^mcp_tasks: not supported by Fawn, ignored: .+ \(\/srv\/deerflow\/config\.yaml\)$/,
    );
  });

  it("a reference plugin entry's package key is unsupported", () => {
    const { findings } = load({
      plugins: [{ name: "x", package: "deerflow-extension-x", use: "x:install", enabled: false }],
    });
    expect(findings.map((f) => [f.kind, f.path])).toEqual([["unsupported", "plugins[0].package"]]);
  });
});
