/**
 * Plugin services under the host: started in load order with their deps, ticked without ever
 * overlapping their own previous tick, a failing start or tick kept to a diagnostic, and stopped
 * in reverse order (tick aborted and awaited first, each step bounded).
 */
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AgentRunsSlot, PluginHost, preparePlugins } from "../../../src/app/plugin-host.js";
import { AgentRunError } from "../../../src/core/errors.js";
import { createLogger } from "../../../src/core/logger.js";
import type { ExtensionService, ExtensionServiceDeps } from "../../../src/extensions/api/index.js";
import { type LoadedExtensions, loadExtensions } from "../../../src/extensions/host/index.js";
import { contributing, entry, fakeAgentRuns, testPlugin } from "./plugin-fixtures.js";

let home: string;
const logger = createLogger({ level: "silent" });

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "fawn-services-"));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

async function loaded(services: Record<string, ExtensionService[]>): Promise<LoadedExtensions> {
  const names = Object.keys(services);
  return loadExtensions({
    entries: names.map((name) => entry(name)),
    builtins: Object.fromEntries(
      names.map((name) => [
        name,
        async () => testPlugin(`test.${name}`, contributing({ services: services[name] })),
      ]),
    ),
    baseDir: home,
  });
}

function host(
  extensions: LoadedExtensions,
  agentRuns = new AgentRunsSlot(),
  stopTimeoutMs?: number,
) {
  return new PluginHost({
    extensions,
    databaseUrl: "memory:",
    home,
    agentRuns,
    logger,
    ...(stopTimeoutMs ? { stopTimeoutMs } : {}),
  });
}

describe("plugin services", () => {
  it("start in order with their deps and stop in reverse order", async () => {
    const events: string[] = [];
    let deps: ExtensionServiceDeps | undefined;
    const service = (name: string): ExtensionService => ({
      name,
      async start(given) {
        events.push(`start ${name}`);
        deps ??= given;
      },
      async stop() {
        events.push(`stop ${name}`);
      },
    });
    const extensions = await loaded({
      first: [service("a"), service("b")],
      second: [service("c")],
    });
    const slot = new AgentRunsSlot();
    const plugins = host(extensions, slot);
    await plugins.start();
    expect(events).toEqual(["start a", "start b", "start c"]);
    expect(deps?.databaseUrl).toBe("memory:");
    expect(deps?.dataDir).toBe(join(home, "extensions", "test.first"));
    expect((await stat(deps?.dataDir ?? "")).isDirectory()).toBe(true);
    await expect(deps?.openDatabase()).rejects.toThrow(/no database connection/);
    // No provider yet: a clear 503; once attached, a handle bound to the plugin, as a service.
    expect(() => deps?.agentRunsFor("owner")).toThrow(AgentRunError);
    const bound: unknown[] = [];
    slot.attach({
      bind: (principal) => {
        bound.push(principal);
        return fakeAgentRuns();
      },
    });
    expect(deps?.agentRunsFor("owner")).toMatchObject({ boundTo: "test.first" });
    expect(bound).toEqual([{ userId: "owner", via: "service" }]);
    await plugins.stop();
    expect(events.slice(3)).toEqual(["stop c", "stop b", "stop a"]);
  });

  it("a failing start is a diagnostic; its stop still runs and the next service starts", async () => {
    const events: string[] = [];
    const extensions = await loaded({
      bad: [
        {
          name: "worker",
          start: async () => {
            throw new Error("lock file busy");
          },
          stop: async () => void events.push("stop bad"),
        },
      ],
      good: [
        {
          name: "worker",
          start: async () => void events.push("start good"),
          stop: async () => void events.push("stop good"),
        },
      ],
    });
    const plugins = host(extensions);
    await plugins.start();
    expect(events).toEqual(["start good"]);
    expect(extensions.diagnostics.list()).toEqual([
      expect.objectContaining({
        namespace: "test.bad",
        stage: "start",
        message: "service worker: start failed: lock file busy",
      }),
    ]);
    await plugins.stop();
    expect(events).toEqual(["start good", "stop good", "stop bad"]);
  });

  it("ticks never overlap; a failing tick is a diagnostic and the loop goes on", async () => {
    let active = 0;
    let maxActive = 0;
    let ticks = 0;
    let release: (() => void) | undefined;
    const extensions = await loaded({
      ticker: [
        {
          name: "loop",
          tickIntervalMs: 10,
          start: async () => {},
          async tick() {
            active += 1;
            maxActive = Math.max(maxActive, active);
            ticks += 1;
            try {
              if (ticks === 2) await new Promise<void>((resolve) => (release = resolve));
              if (ticks === 3) throw new Error("tick exploded");
            } finally {
              active -= 1;
            }
          },
          stop: async () => {},
        },
      ],
    });
    const plugins = host(extensions);
    await plugins.start();
    await vi.waitFor(() => expect(release).toBeDefined());
    // The second tick is held: no third tick starts meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(ticks).toBe(2);
    release?.();
    await vi.waitFor(() => expect(ticks).toBeGreaterThanOrEqual(5));
    expect(maxActive).toBe(1);
    const diagnostics = extensions.diagnostics.list();
    expect(diagnostics).toEqual([
      expect.objectContaining({
        stage: "tick",
        message: "service loop: tick failed: tick exploded",
      }),
    ]);
    await plugins.stop();
  });

  it("stop aborts the tick, waits for it, then stops; a stop that hangs is bounded", async () => {
    const events: string[] = [];
    const extensions = await loaded({
      slow: [
        {
          name: "held",
          tickIntervalMs: 10,
          start: async () => {},
          tick: (signal) =>
            new Promise<void>((resolve) => {
              events.push("tick");
              signal.addEventListener("abort", () => {
                events.push("tick aborted");
                setTimeout(() => {
                  events.push("tick ended");
                  resolve();
                }, 5);
              });
            }),
          stop: async () => void events.push("stop"),
        },
      ],
      hung: [{ name: "stuck", start: async () => {}, stop: () => new Promise<void>(() => {}) }],
    });
    const plugins = host(extensions, new AgentRunsSlot(), 50);
    await plugins.start();
    await vi.waitFor(() => expect(events).toContain("tick"));
    await plugins.stop();
    expect(events).toEqual(["tick", "tick aborted", "tick ended", "stop"]);
    expect(extensions.diagnostics.list()).toEqual([
      expect.objectContaining({
        namespace: "test.hung",
        stage: "stop",
        message: expect.stringContaining("timed out"),
      }),
    ]);
  });

  it("as createFawn prepares them, services open their database through the host's SQL layer", async () => {
    let dialect: string | undefined;
    const plugins = await preparePlugins(
      { plugins: [entry("db")], home, database: { url: `sqlite:${join(home, "fawn.db")}` } },
      {
        builtinPlugins: {
          db: async () =>
            testPlugin(
              "test.db",
              contributing({
                services: [
                  {
                    name: "store",
                    async start(deps) {
                      const database = await deps.openDatabase();
                      dialect = database.dialect;
                      await database.close();
                    },
                    stop: async () => {},
                  },
                ],
              }),
            ),
        },
      },
      logger,
    );
    await plugins.host.start();
    await plugins.host.stop();
    expect(plugins.extensions.diagnostics.list()).toEqual([]);
    expect(dialect).toBe("sqlite");
  });
});
