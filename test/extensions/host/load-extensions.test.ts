/**
 * The loader over `plugins:` entries: resolution (built-ins, files, `#export`), the API version
 * rule, declaration and contribution checks, failures that leave nothing of the plugin behind,
 * `required`, and two entries of the same plugin.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../../src/core/config/load-config.js";
import { ConfigError } from "../../../src/core/errors.js";
import { EXTENSION_API_VERSION } from "../../../src/extensions/api/index.js";
import {
  isCompatibleApiVersion,
  type LoadedExtensions,
  loadExtensions,
  MAX_DIAGNOSTICS,
} from "../../../src/extensions/host/index.js";
import type { BuiltinPlugins } from "../../../src/extensions/host/resolve-plugin.js";
import { contributing, entry, OBJECT_SCHEMA, testPlugin } from "./plugin-fixtures.js";

const FIXTURES = fileURLToPath(new URL("../../fixtures/plugins/", import.meta.url));

function load(entries: ReturnType<typeof entry>[], builtins: BuiltinPlugins = {}) {
  return loadExtensions({ entries, builtins, baseDir: FIXTURES });
}

function failures(loaded: LoadedExtensions) {
  return loaded.diagnostics.list().map(({ plugin, stage, level, message }) => ({
    plugin,
    stage,
    level,
    message,
  }));
}

const healthy = testPlugin(
  "test.healthy",
  contributing({ actions: [{ name: "ping", handler: async () => "pong" }] }),
);

describe("plugins: config key", () => {
  it("fills defaults and rejects unknown keys", () => {
    const { config, warnings } = parseConfig(
      { plugins: [{ use: "./p.js" }, { use: "x", enabled: false, bogus: 1 }] },
      { env: {}, cwd: "/tmp" },
    );
    expect(config.plugins[0]).toEqual({
      use: "./p.js",
      enabled: true,
      config: {},
      required: false,
    });
    expect(config.plugins[1]?.enabled).toBe(false);
    expect(warnings.join("\n")).toContain("plugins[1].bogus");
    expect(() => parseConfig({ plugins: [{ enabled: true }] }, { env: {}, cwd: "/tmp" })).toThrow(
      ConfigError,
    );
  });
});

describe("API version compatibility", () => {
  it("needs the same major and a host minor at least the declared one", () => {
    expect(EXTENSION_API_VERSION).toBe("1.0");
    expect(isCompatibleApiVersion("1.0", "1.0")).toBe(true);
    expect(isCompatibleApiVersion("1", "1.0")).toBe(true);
    expect(isCompatibleApiVersion("1.0", "1.3")).toBe(true);
    expect(isCompatibleApiVersion("1.4", "1.3")).toBe(false);
    expect(isCompatibleApiVersion("2.0", "1.3")).toBe(false);
    expect(isCompatibleApiVersion("0.9", "1.0")).toBe(false);
    expect(isCompatibleApiVersion("one", "1.0")).toBe(false);
  });
});

describe("resolution", () => {
  it("loads built-ins, file paths relative to the config folder, default and named exports", async () => {
    const loaded = await load(
      [
        entry("healthy"),
        entry("./echo-plugin.ts", { name: "echo", config: { greeting: "hi" } }),
        entry(`${FIXTURES}named-exports.ts#other`),
        entry("./named-exports.ts"),
      ],
      { healthy: async () => healthy },
    );
    expect(failures(loaded)).toEqual([]);
    expect(loaded.plugins.map((plugin) => plugin.namespace)).toEqual([
      "test.healthy",
      "fixture.echo",
      "fixture.other",
      "fixture.fallback",
    ]);
    const echo = loaded.plugins[1];
    expect(echo?.label).toBe("echo");
    expect(echo?.version).toBe("1.2.3");
    expect(echo?.settings).toEqual({ greeting: "hi" });
    expect(Object.isFrozen(loaded.plugins)).toBe(true);
  });

  it("a module that is missing, throws on import, or lacks the export is a resolve diagnostic", async () => {
    const loaded = await load([
      entry("./no-such-plugin.ts"),
      entry("./throws-on-import.ts"),
      entry("./named-exports.ts#missing"),
      entry("no-such-package-for-fawn"),
      entry("./echo-plugin.ts"),
    ]);
    expect(loaded.plugins.map((plugin) => plugin.namespace)).toEqual(["fixture.echo"]);
    const found = failures(loaded);
    expect(found.map((failure) => failure.stage)).toEqual([
      "resolve",
      "resolve",
      "resolve",
      "resolve",
    ]);
    expect(found[1]?.message).toContain("fixture module failed to import");
    expect(found[2]?.message).toContain('no export named "missing"');
    expect(loaded.entries.map((outcome) => outcome.status)).toEqual([
      "failed",
      "failed",
      "failed",
      "failed",
      "loaded",
    ]);
  });

  it("a disabled entry is skipped before it is even imported", async () => {
    let imported = false;
    const loaded = await load([entry("lazy", { enabled: false })], {
      lazy: async () => {
        imported = true;
        return healthy;
      },
    });
    expect(imported).toBe(false);
    expect(loaded.entries).toEqual([{ status: "disabled", label: "lazy" }]);
    expect(loaded.diagnostics.size).toBe(0);
  });
});

describe("validation", () => {
  it("refuses exports that are not plugins, incompatible API versions and bad namespaces", async () => {
    const loaded = await load(
      [
        entry("./named-exports.ts#notAPlugin"),
        entry("./named-exports.ts#futureApi"),
        entry("./named-exports.ts#nextMajor"),
        entry("upper"),
        entry("colon"),
        entry("long"),
        entry("./named-exports.ts#noInstall"),
      ],
      {
        upper: async () => testPlugin("Test.Upper"),
        colon: async () => testPlugin("test:colon"),
        long: async () => testPlugin(`a${".b".repeat(60)}`),
      },
    );
    expect(loaded.plugins).toEqual([]);
    const found = failures(loaded);
    expect(
      found.every((failure) => failure.stage === "validate" && failure.level === "error"),
    ).toBe(true);
    expect(found[0]?.message).toContain("not a plugin object");
    expect(found[1]?.message).toContain("targets extension API 1.9");
    expect(found[1]?.message).toContain("implements 1.0");
    expect(found[2]?.message).toContain(">=2.0, <3.0");
    expect(found[3]?.message).toContain('namespace "Test.Upper" is invalid');
    expect(found[4]?.message).toContain("test:colon");
    expect(found[5]?.message).toContain("at most 96");
    expect(found[6]?.message).toContain('"install" must be a function');
  });

  it("refuses bad contributions, and nothing of a refused plugin is registered", async () => {
    const handler = async () => null;
    const cases: Record<string, Parameters<typeof contributing>[0]> = {
      toolName: {
        tools: [{ name: "Bad-Name", description: "d", inputSchema: OBJECT_SCHEMA, handler }],
      },
      toolDup: {
        tools: [
          { name: "t", description: "d", inputSchema: OBJECT_SCHEMA, handler },
          { name: "t", description: "d", inputSchema: OBJECT_SCHEMA, handler },
        ],
      },
      toolDescription: {
        tools: [{ name: "t", description: " ", inputSchema: OBJECT_SCHEMA, handler }],
      },
      toolRef: {
        tools: [
          {
            name: "t",
            description: "d",
            inputSchema: { type: "object", properties: { a: { $ref: "#/$defs/a" } } },
            handler,
          },
        ],
      },
      toolNotObject: {
        tools: [{ name: "t", description: "d", inputSchema: { type: "string" }, handler }],
      },
      toolInvalidSchema: {
        tools: [
          {
            name: "t",
            description: "d",
            inputSchema: { type: "object", minProperties: -1 },
            handler,
          },
        ],
      },
      actionName: { actions: [{ name: "Do It", handler }] },
      actionDup: {
        actions: [
          { name: "go", handler },
          { name: "go", handler },
        ],
      },
      routePath: {
        routes: [{ method: "GET", path: "no-slash", handler: async () => ({ body: 1 }) }],
      },
      routeDots: {
        routes: [{ method: "GET", path: "/a/../b", handler: async () => ({ body: 1 }) }],
      },
      routeActions: {
        routes: [{ method: "GET", path: "/actions/x", handler: async () => ({ body: 1 }) }],
      },
      routeDup: {
        routes: [
          { method: "GET", path: "/items/:id", handler: async () => ({ body: 1 }) },
          { method: "GET", path: "/items/:key", handler: async () => ({ body: 1 }) },
        ],
      },
    };
    const builtins: BuiltinPlugins = Object.fromEntries(
      Object.entries(cases).map(([name, contributions]) => [
        name,
        async () =>
          testPlugin(`test.${name.toLowerCase()}`, () => ({
            // Every refused plugin also offers a valid action: it must not be reachable.
            actions: [{ name: "valid", handler }],
            ...contributions,
          })),
      ]),
    );
    const loaded = await load(
      [...Object.keys(cases).map((name) => entry(name)), entry("healthy")],
      { ...builtins, healthy: async () => healthy },
    );
    expect(loaded.plugins.map((plugin) => plugin.namespace)).toEqual(["test.healthy"]);
    const found = failures(loaded);
    expect(found).toHaveLength(Object.keys(cases).length);
    expect(found.every((failure) => failure.stage === "validate")).toBe(true);
    const messages = found.map((failure) => failure.message);
    expect(messages[0]).toContain("tools[0]: name must match");
    expect(messages[1]).toContain('tool "t" is declared twice');
    expect(messages[2]).toContain("non-empty description");
    expect(messages[3]).toContain("$ref");
    expect(messages[4]).toContain('type "object"');
    expect(messages[5]).toContain("not a valid JSON Schema");
    expect(messages[6]).toContain("lowercase slug");
    expect(messages[7]).toContain('action "go" is declared twice');
    expect(messages[8]).toContain('starting with "/"');
    expect(messages[9]).toContain("invalid segment");
    expect(messages[10]).toContain("reserved for actions");
    expect(messages[11]).toContain("declared twice");
  });

  it("an install that throws is an install diagnostic; later plugins still load", async () => {
    const loaded = await load(
      [
        entry("broken", { name: "Broken plugin" }),
        entry("./named-exports.ts#installReturnsString", { name: "notobject" }),
        entry("healthy"),
      ],
      {
        broken: async () =>
          testPlugin("test.broken", () => {
            throw new Error("database password missing");
          }),
        healthy: async () => healthy,
      },
    );
    expect(loaded.plugins.map((plugin) => plugin.namespace)).toEqual(["test.healthy"]);
    expect(failures(loaded)).toEqual([
      {
        plugin: "Broken plugin",
        stage: "install",
        level: "error",
        message: "install() failed: database password missing",
      },
      {
        plugin: "notobject",
        stage: "validate",
        level: "error",
        message: "install() must return an object (got string)",
      },
    ]);
    expect(loaded.diagnostics.list()[0]?.namespace).toBe("test.broken");
  });

  it("a required plugin's failure stops start-up with a ConfigError", async () => {
    const builtins: BuiltinPlugins = {
      broken: async () =>
        testPlugin("test.broken", () => {
          throw new Error("boom");
        }),
    };
    const failed = load([entry("broken", { required: true })], builtins);
    await expect(failed).rejects.toThrow(ConfigError);
    await expect(failed).rejects.toThrow(
      /Required plugin "broken" failed to load \(install\): .*boom/,
    );
    // Not required: the same failure is a diagnostic only.
    const loaded = await load([entry("broken")], builtins);
    expect(loaded.entries[0]?.status).toBe("failed");
  });
});

describe("two entries of the same plugin", () => {
  it("each install gets its own shallow copy of its config; a second live copy needs its own namespace", async () => {
    const seen: Array<Readonly<Record<string, unknown>>> = [];
    const shared = { nested: { value: 1 } };
    const plugin = testPlugin("test.twice", (config) => {
      seen.push(config);
      return {};
    });
    const builtins: BuiltinPlugins = { twice: async () => plugin };
    const first = await load(
      [
        entry("twice", { name: "off", enabled: false, config: { mode: "a" } }),
        entry("twice", { name: "on", config: { mode: "b", shared } }),
      ],
      builtins,
    );
    expect(first.plugins.map((loaded) => loaded.label)).toEqual(["on"]);
    expect(seen).toEqual([{ mode: "b", shared }]);
    expect(Object.isFrozen(seen[0])).toBe(true);
    // Shallow: the top level is a copy, nested values are shared.
    expect(seen[0]?.shared).toBe(shared);

    seen.length = 0;
    const both = await load(
      [
        entry("twice", { name: "a", config: { mode: "a" } }),
        entry("twice", { name: "b", config: { mode: "b" } }),
      ],
      builtins,
    );
    expect(both.plugins.map((loaded) => [loaded.label, loaded.settings])).toEqual([
      ["a", { mode: "a" }],
    ]);
    expect(seen).toEqual([{ mode: "a" }]);
    expect(failures(both)).toEqual([
      {
        plugin: "b",
        stage: "validate",
        level: "error",
        message: expect.stringContaining('namespace "test.twice" is already loaded'),
      },
    ]);
  });
});

describe("diagnostics", () => {
  it("keeps the newest 1000", async () => {
    const loaded = await load([]);
    for (let i = 0; i < MAX_DIAGNOSTICS + 5; i += 1) {
      loaded.diagnostics.record({ plugin: "p", level: "warning", stage: "tick", message: `m${i}` });
    }
    const list = loaded.diagnostics.list();
    expect(list).toHaveLength(MAX_DIAGNOSTICS);
    expect(list[0]?.message).toBe("m5");
    expect(list.at(-1)?.message).toBe(`m${MAX_DIAGNOSTICS + 4}`);
  });
});
