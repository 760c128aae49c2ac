/**
 * No payload of any stream mode carries the server's internals: the run's journal (handed to the
 * graph in `configurable.__fawn_evidence`, as the lead agent does), LangGraph's `__pregel_*`
 * config keys, or callbacks. Every chunk of every mode, with and without subgraphs, is scanned.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { testGraph } from "./helpers/graphs.js";
import {
  collect,
  graph,
  type Part,
  type StreamGateway,
  say,
  startStreamGateway,
} from "./helpers/stream-gateway.js";

const EVERY_MODE = [
  "values",
  "messages",
  "messages-tuple",
  "updates",
  "custom",
  "debug",
  "tasks",
  "checkpoints",
  "events",
];

let g: StreamGateway;

beforeAll(async () => {
  g = await startStreamGateway(testGraph);
});
afterAll(async () => {
  await g?.close();
});

/** Paths of keys in `value` the server keeps to itself. */
function internalKeys(value: unknown, path = "$"): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => internalKeys(item, `${path}[${i}]`));
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) => {
    const here = `${path}.${key}`;
    const own = /^__(fawn|pregel)/.test(key) || key === "callbacks" ? [here] : [];
    return [...own, ...internalKeys(item, here)];
  });
}

it.each([
  ["chat", say("hi"), {}],
  ["steps", {}, { interruptBefore: ["third"] }],
  ["nested", {}, { streamSubgraphs: true }],
  ["nestedChat", say("hi"), { streamSubgraphs: true }],
  ["ask", {}, { streamSubgraphs: true }],
  ["failing", {}, {}],
])(
  "every chunk of every mode of the %s graph is free of internal keys",
  async (name, input, extra) => {
    const thread = await g.client.threads.create();
    const parts: Part[] = await collect(
      g.client.runs.stream(thread.thread_id, "lead_agent", {
        input,
        streamMode: EVERY_MODE as never,
        config: graph(name),
        ...extra,
      }),
    );
    expect(parts.length).toBeGreaterThan(3);
    const leaks = parts.flatMap((part) => internalKeys(part.data, part.event));
    expect(leaks).toEqual([]);
    // Nothing of the journal either, under any name: it would have its store and run ids.
    expect(JSON.stringify(parts)).not.toContain("__fawn");
  },
);
