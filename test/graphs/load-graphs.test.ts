/**
 * The graph loader over the fixture project and bad entries: every export kind loads; a bad
 * entry stops start-up naming its file, export and problem; ids never clash with the lead agent
 * or each other; langgraph.json's env and LANGGRAPH_CONFIG apply; drawings and subgraphs go
 * as deep as asked.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError } from "../../src/core/errors.js";
import { createLogger } from "../../src/core/logger.js";
import { type LoadedGraphs, loadGraphs } from "../../src/graphs/load-graphs.js";
import { FIXTURE_LANGGRAPH_JSON } from "./helpers/serve-graphs.js";

const FIXTURES = dirname(FIXTURE_LANGGRAPH_JSON);
const logger = createLogger({ level: "silent" });

function load(configGraphs: Record<string, string>, env: NodeJS.ProcessEnv = {}) {
  return loadGraphs({ configGraphs, configDir: FIXTURES, logger, env });
}

async function loadError(configGraphs: Record<string, string>): Promise<ConfigError> {
  const error = await load(configGraphs).then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return error as ConfigError;
}

describe("the fixture project", () => {
  let loaded: LoadedGraphs;
  const env: NodeJS.ProcessEnv = { FAWN_FIXTURE_GRAPHS_ENV: "from-the-process" };

  beforeAll(async () => {
    loaded = await loadGraphs({
      langgraphJson: FIXTURE_LANGGRAPH_JSON,
      configDir: FIXTURES,
      logger,
      env,
    });
  });

  const served = (graphId: string) => {
    const graph = loaded.graphs.find((g) => g.served.graphId === graphId);
    if (!graph) throw new Error(`no graph ${graphId}`);
    return graph.served;
  };

  it("loads every graph in order and names the http.app", () => {
    expect(loaded.graphs.map((g) => g.served.graphId)).toEqual([
      "echo",
      "echo_uncompiled",
      "echo_factory",
      "tool_agent",
      "nested",
      "store_graph",
      "error_graph",
      "dynamic",
      "client_graph",
    ]);
    expect(loaded.httpApp).toMatchObject({ file: join(FIXTURES, "http.ts"), exportName: "app" });
  });

  it("applies env where unset and makes LANGGRAPH_CONFIG the graph's assistant defaults", () => {
    expect(env.FAWN_FIXTURE_GRAPHS_ENV).toBe("from-the-process");
    expect(env.LANGGRAPH_CONFIG).toContain("flavour");
    expect(served("echo").defaults).toEqual({
      config: { configurable: { flavour: "plain" } },
      context: { prefix: "said" },
    });
    expect(served("tool_agent").defaults).toBeUndefined();
  });

  it("draws subgraphs inline with xray, and lists them recursively or under a namespace", async () => {
    const ids = (drawing: { nodes: unknown[] }) =>
      drawing.nodes.map((node) => (node as { id: string }).id);
    const nested = served("nested");
    expect(ids(await nested.drawing())).toEqual([
      "__start__",
      "start",
      "middle",
      "finish",
      "__end__",
    ]);
    expect(ids(await nested.drawing({ xray: true }))).toEqual(
      expect.arrayContaining(["middle:prepare", "middle:inner:ask", "middle:inner:record"]),
    );
    expect(ids(await nested.drawing({ xray: 1 }))).toEqual(
      expect.arrayContaining(["middle:prepare", "middle:inner"]),
    );
    expect(Object.keys(await nested.subgraphs({ recurse: true }))).toEqual([
      "middle",
      "middle|inner",
    ]);
    expect(Object.keys(await nested.subgraphs({ namespace: "middle" }))).toEqual(["middle"]);
  });
});

describe("state access of a factory graph", () => {
  it("is built with the thread's config, so its nodes are the ones that run had", async () => {
    const { graphs } = await load({ dynamic: "./dynamic.ts:graph" });
    const served = graphs[0]?.served;
    const checkpointer = new MemorySaver();
    const thread = { configurable: { thread_id: "t" } };
    const access = await served?.stateAccess?.({
      checkpointer,
      config: { configurable: { nodeName: "custom" } },
    });
    await access?.updateState(thread, { visited: ["by hand"] }, "custom");
    expect((await access?.getState(thread))?.values).toEqual({ visited: ["by hand"] });
    const byDefault = await served?.stateAccess?.({ checkpointer });
    await expect(byDefault?.updateState(thread, { visited: ["x"] }, "custom")).rejects.toThrow(
      /custom/,
    );
  });
});

describe("a bad graph entry stops loading, naming file, export and problem", () => {
  it("a missing file", async () => {
    const error = await loadError({ ghost: "./no-such-file.ts:graph" });
    expect(error.message).toContain(join(FIXTURES, "no-such-file.ts"));
    expect(error.message).toContain('export "graph"');
    expect(error.message).toContain("does not exist");
  });

  it("a missing export, listing the module's exports", async () => {
    const error = await loadError({ ghost: "./echo.ts:nope" });
    expect(error.message).toContain(join(FIXTURES, "echo.ts"));
    expect(error.message).toContain('no export "nope"');
    expect(error.message).toContain('"graph"');
  });

  it("an export of the wrong kind", async () => {
    const object = await loadError({ bad: "./bad/not-a-graph.ts:notAGraph" });
    expect(object.message).toContain(join(FIXTURES, "bad", "not-a-graph.ts"));
    expect(object.message).toContain('export "notAGraph"');
    expect(object.message).toContain("a plain object, not a compiled graph");
    const number = await loadError({ bad: "./bad/not-a-graph.ts:answer" });
    expect(number.message).toContain("a number, not a compiled graph");
    const uncompilable = await loadError({ bad: "./bad/not-a-graph.ts:unreachable" });
    expect(uncompilable.message).toContain('export "unreachable"');
    expect(uncompilable.message).toContain("compiling the StateGraph failed");
  });

  it("an entry without a path", async () => {
    const error = await loadError({ bad: ":graph" });
    expect(error.message).toContain("./path/to/file.ts:exportName");
  });

  it("the lead agent's id, or an id named twice", async () => {
    const lead = await loadError({ lead_agent: "./echo.ts:graph" });
    expect(lead.message).toContain('"lead_agent" is the lead agent\'s');
    const twice = await loadGraphs({
      langgraphJson: FIXTURE_LANGGRAPH_JSON,
      configGraphs: { echo: "./echo.ts:graph" },
      configDir: FIXTURES,
      logger,
      env: {},
    }).catch((reason: unknown) => reason);
    expect(twice).toBeInstanceOf(ConfigError);
    expect((twice as Error).message).toContain('graph id "echo" is named twice');
  });

  it("a LANGGRAPH_CONFIG that is not an object of objects", async () => {
    const notJson = await load({}, { LANGGRAPH_CONFIG: "{oops" }).catch((e: unknown) => e);
    expect((notJson as Error).message).toContain("LANGGRAPH_CONFIG is not valid JSON");
    const notObject = await load({}, { LANGGRAPH_CONFIG: '{"echo": 3}' }).catch((e: unknown) => e);
    expect((notObject as Error).message).toContain('LANGGRAPH_CONFIG["echo"] must be an object');
  });

  it("a factory returning the wrong kind fails the run that builds it, naming the export", async () => {
    const dir = await mkdtemp(join(tmpdir(), "fawn-graph-factory-"));
    try {
      await writeFile(join(dir, "factory.mjs"), "export const make = async () => 'not a graph';\n");
      const { graphs } = await loadGraphs({
        configGraphs: { made: "./factory.mjs:make" },
        configDir: dir,
        logger,
        env: {},
      });
      const error = await graphs[0]?.agent({ config: {} }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain('export "make"');
      expect((error as Error).message).toContain("the graph factory returned a string");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("langgraph.json", () => {
  let dir = "";
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "fawn-langgraph-json-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("reads env from the .env file it names; relative paths are the file's", async () => {
    await writeFile(join(dir, ".env.graphs"), "GRAPH_SETTING=from-dotenv\nLANGGRAPH_CONFIG={}\n");
    await writeFile(
      join(dir, "langgraph.json"),
      JSON.stringify({ graphs: { echo: `${FIXTURES}/echo.ts:graph` }, env: ".env.graphs" }),
    );
    const env: NodeJS.ProcessEnv = {};
    const { graphs } = await loadGraphs({
      langgraphJson: join(dir, "langgraph.json"),
      configDir: dir,
      logger,
      env,
    });
    expect(graphs.map((g) => g.served.graphId)).toEqual(["echo"]);
    expect(env.GRAPH_SETTING).toBe("from-dotenv");
  });

  it("rejects a file that is not JSON, or has graphs of the wrong type, naming the file", async () => {
    await writeFile(join(dir, "broken.json"), "{ graphs: ");
    const broken = await loadGraphs({
      langgraphJson: join(dir, "broken.json"),
      configDir: dir,
      logger,
      env: {},
    }).catch((e: unknown) => e);
    expect((broken as Error).message).toContain(`${join(dir, "broken.json")}: not valid JSON`);
    await writeFile(join(dir, "wrong.json"), JSON.stringify({ graphs: { a: 3 } }));
    const wrong = await loadGraphs({
      langgraphJson: join(dir, "wrong.json"),
      configDir: dir,
      logger,
      env: {},
    }).catch((e: unknown) => e);
    expect((wrong as Error).message).toContain("graphs.a");
  });
});
