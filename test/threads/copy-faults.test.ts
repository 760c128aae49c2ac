/**
 * A copy that fails at either step (`copy-checkpoints`, `create-row`) leaves nothing behind: no
 * thread row and no checkpoints under the copy's id.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_USER_ID } from "../../src/core/paths.js";
import { ThreadGraphs } from "../../src/gateway/state/thread-graphs.js";
import { ThreadStateService } from "../../src/gateway/state/thread-state-service.js";
import { type ThreadCopyStep, ThreadService } from "../../src/gateway/threads/thread-service.js";
import { staticGraphCatalog } from "../../src/ports/graph-catalog.js";
import { type GraphGateway, startGraphGateway } from "./helpers/graph-gateway.js";

let g: GraphGateway;

beforeAll(async () => {
  g = await startGraphGateway();
});
afterAll(async () => {
  await g?.close();
});

/** The thread ids that have checkpoints. */
async function checkpointedThreads(): Promise<Set<string>> {
  const ids = new Set<string>();
  for await (const tuple of g.fawn.checkpointer.list({})) {
    const id = tuple.config.configurable?.thread_id;
    if (typeof id === "string") ids.add(id);
  }
  return ids;
}

function serviceFailingAt(step: ThreadCopyStep, after: { count: number }): ThreadService {
  const { fawn } = g;
  const state = new ThreadStateService(
    fawn.checkpointer,
    new ThreadGraphs(fawn.checkpointer, {
      graphs: staticGraphCatalog([]),
      threads: fawn.stores.threads,
    }),
  );
  return new ThreadService(
    {
      home: fawn.config.home,
      manager: fawn.manager,
      stores: fawn.stores,
      onCopyStep: async (at) => {
        if (at !== step) return;
        // Fail once the step's predecessor has written (checkpoints exist for create-row).
        after.count += 1;
        throw new Error(`injected failure at ${at}`);
      },
    },
    state,
  );
}

describe("copy faults", () => {
  for (const step of ["copy-checkpoints", "create-row"] as const) {
    it(`a failure at ${step} leaves no row and no checkpoints`, async () => {
      const thread = await g.client.threads.create({ graphId: "steps" });
      await g.client.runs.wait(thread.thread_id, "steps", { input: { items: ["in"] } });
      const threadsBefore = await g.client.threads.count();
      const checkpointsBefore = await checkpointedThreads();
      const hits = { count: 0 };
      await expect(
        serviceFailingAt(step, hits).copy(thread.thread_id, DEFAULT_USER_ID),
      ).rejects.toThrow(`injected failure at ${step}`);
      expect(hits.count).toBe(1);
      expect(await g.client.threads.count()).toBe(threadsBefore);
      expect(await checkpointedThreads()).toEqual(checkpointsBefore);
    });
  }
});
