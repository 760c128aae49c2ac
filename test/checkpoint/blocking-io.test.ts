/**
 * The saver does no blocking IO on the event loop: graph turns, state and history
 * reads, a fork from an older checkpoint and a thread deletion all run inside the blocking-IO
 * gate, where any synchronous fs or child_process call throws. Opening the database (start-up)
 * happens outside the gate.
 */
import { afterEach, describe, expect, it } from "vitest";
import { SqlCheckpointSaver } from "../../src/stores/sql/checkpoint/sql-checkpoint-saver.js";
import { openSqlDatabase, type SqlDatabase } from "../../src/stores/sql/database.js";
import { withBlockingIoGate } from "../helpers/blocking-io-gate.js";
import { checkpointBackends } from "./backends.js";
import { buildChatGraph, humanTurn, threadConfig } from "./chat-graph.js";

const backends = await checkpointBackends("checkpoint_blocking_io");

describe.each(backends)("SqlCheckpointSaver under the blocking-IO gate ($name)", (backend) => {
  let database: SqlDatabase | undefined;

  afterEach(async () => {
    await database?.close();
  });

  it("runs turns, reads state and history, forks and deletes without sync IO", async () => {
    database = await openSqlDatabase(backend.url());
    const opened = database;
    const thread = `${backend.name}-gated-${Date.now()}`;
    await withBlockingIoGate(async () => {
      const graph = buildChatGraph(new SqlCheckpointSaver(opened));
      for (let turn = 1; turn <= 3; turn++) {
        await graph.invoke(humanTurn(turn), threadConfig(thread));
      }
      const state = await graph.getState(threadConfig(thread));
      expect(state.values.messages).toHaveLength(6);
      const history = [];
      for await (const snapshot of graph.getStateHistory(threadConfig(thread))) {
        history.push(snapshot);
      }
      const afterFirstTurn = history.find(
        (s) => s.values.messages?.length === 2 && s.next.length === 0,
      );
      const forkFrom = afterFirstTurn?.config.configurable?.checkpoint_id;
      expect(typeof forkFrom).toBe("string");
      await graph.invoke(humanTurn(9, "fork"), threadConfig(thread, String(forkFrom)));
      expect((await graph.getState(threadConfig(thread))).values.messages).toHaveLength(4);
      // A cold saver (empty caches) reads the thread back from the database.
      const cold = buildChatGraph(new SqlCheckpointSaver(opened));
      expect((await cold.getState(threadConfig(thread))).values.messages).toHaveLength(4);
      await new SqlCheckpointSaver(opened).deleteThread(thread);
      expect((await graph.getState(threadConfig(thread))).values).toEqual({});
    });
  });
});
