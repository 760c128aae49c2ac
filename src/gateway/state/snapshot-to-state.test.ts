import { expect, it } from "vitest";
import { snapshotToState } from "./snapshot-to-state.js";

it("names only the namespace of a subgraph task that has no checkpoint yet", () => {
  const state = snapshotToState(
    {
      values: { city: "SF" },
      next: ["weather_graph"],
      config: { configurable: { thread_id: "t1", checkpoint_ns: "", checkpoint_id: "c1" } },
      tasks: [
        {
          id: "task-1",
          name: "weather_graph",
          path: ["__pregel_pull", "weather_graph"],
          interrupts: [],
          state: { configurable: { thread_id: "t1", checkpoint_ns: "weather_graph:task-1" } },
        },
      ],
    },
    "t1",
  );
  expect(state.tasks).toEqual([
    {
      id: "task-1",
      name: "weather_graph",
      path: ["__pregel_pull", "weather_graph"],
      error: null,
      interrupts: [],
      checkpoint: { thread_id: "t1", checkpoint_ns: "weather_graph:task-1" },
      state: null,
      result: null,
    },
  ]);
});
