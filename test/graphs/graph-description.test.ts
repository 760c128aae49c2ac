/**
 * What the API says about a served graph, through the real SDK `Client`: its drawing (LangGraph's
 * JSON), its schemas derived from its zod state (with the
 * `@langchain/langgraph/zod` registry's extras) and context, and its subgraphs by namespace.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURE_LANGGRAPH_JSON, type ServedGraphs, serveGraphs } from "./helpers/serve-graphs.js";

describe("a served graph's description", () => {
  let server: ServedGraphs;

  beforeAll(async () => {
    server = await serveGraphs({ langgraphJson: FIXTURE_LANGGRAPH_JSON });
  });

  afterAll(async () => {
    await server?.close();
  });

  it("draws the graph's nodes and edges", async () => {
    const graph = await server.client().assistants.getGraph("tool_agent");
    expect(graph).toMatchObject({
      nodes: expect.arrayContaining([
        expect.objectContaining({ id: "__start__", type: "schema" }),
        expect.objectContaining({ id: "agent", type: "runnable" }),
        expect.objectContaining({ id: "tools", type: "runnable" }),
        expect.objectContaining({ id: "__end__", type: "schema" }),
      ]),
      edges: expect.arrayContaining([
        expect.objectContaining({ source: "__start__", target: "agent" }),
        expect.objectContaining({ source: "tools", target: "agent" }),
        expect.objectContaining({ source: "agent", target: "tools", conditional: true }),
      ]),
    });
  });

  it("derives the schemas of a zod state, with the registry's extras, and its context", async () => {
    const schemas = await server.client().assistants.getSchemas("echo");
    expect(schemas.graph_id).toBe("echo");
    expect(schemas.state_schema).toMatchObject({
      type: "object",
      properties: {
        messages: expect.objectContaining({ langgraph_type: "messages" }),
        turns: expect.objectContaining({ type: "number" }),
      },
    });
    expect(schemas.input_schema).toMatchObject({ type: "object" });
    expect(schemas.output_schema).toMatchObject({ type: "object" });
    const context = { type: "object", properties: { prefix: { type: "string" } } };
    expect(schemas.config_schema).toMatchObject(context);
    expect(schemas.context_schema).toMatchObject(context);
  });

  it("lists an Annotation state's channels when it has no runtime types", async () => {
    const schemas = await server.client().assistants.getSchemas("store_graph");
    expect(schemas.state_schema).toMatchObject({
      type: "object",
      properties: { note: {}, seen: {}, hasStore: {} },
    });
    expect(schemas.config_schema).toBeNull();
  });

  it("lists a graph's subgraphs by namespace with their schemas", async () => {
    const client = server.client();
    const subgraphs = await client.assistants.getSubgraphs("nested");
    expect(Object.keys(subgraphs)).toEqual(["middle"]);
    const childState = {
      type: "object",
      properties: { child: { type: "string", enum: ["child_one", "child_two"] } },
    };
    expect(subgraphs.middle).toMatchObject({ state: childState, state_schema: childState });
    expect(await client.assistants.getSubgraphs("echo")).toEqual({});
  });
});
