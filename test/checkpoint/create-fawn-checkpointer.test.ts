/**
 * createFawn picks the checkpointer from the database URL: SQL stores get SqlCheckpointSaver on
 * the same database (so checkpoints survive a restart), `memory:` keeps a MemorySaver.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemorySaver } from "@langchain/langgraph-checkpoint";
import { afterAll, describe, expect, it } from "vitest";
import { createFawn, type Fawn } from "../../src/app/create-fawn.js";
import { parseConfig } from "../../src/core/config/load-config.js";
import type { StreamingAgent } from "../../src/ports/agent.js";
import { SqlCheckpointSaver } from "../../src/stores/sql/checkpoint/sql-checkpoint-saver.js";
import { within } from "../helpers/latch.js";
import { buildChatGraph, humanTurn, threadConfig } from "./chat-graph.js";

const dir = await mkdtemp(join(tmpdir(), "fawn-create-"));

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function openFawn(url: string): Promise<Fawn> {
  const { config } = parseConfig({ database: { url } }, { env: { FAWN_HOME: dir }, cwd: dir });
  return createFawn({
    config,
    // The graph writes through the checkpointer createFawn chose.
    buildAgent: ({ checkpointer }) => {
      const agent: StreamingAgent = {
        stream: (input, options) =>
          buildChatGraph(checkpointer).stream(input as ReturnType<typeof humanTurn>, {
            configurable: options.configurable,
            streamMode: "values",
            signal: options.signal,
          }),
      };
      return () => agent;
    },
  });
}

describe("createFawn's checkpointer", () => {
  it("is SqlCheckpointSaver on the stores' database for a SQLite URL, durable across restarts", async () => {
    const url = `sqlite:${join(dir, "fawn.db")}`;
    const first = await openFawn(url);
    try {
      expect(first.checkpointer).toBeInstanceOf(SqlCheckpointSaver);
      const record = await first.runs.submit({
        threadId: "durable",
        invocation: { input: humanTurn(1), stream_mode: ["values"] },
      });
      await within(
        record.task ? record.task.settled().then(() => undefined) : Promise.resolve(),
        10_000,
        "run did not finish",
      );
      expect((await first.stores.runs.get(record.runId))?.status).toBe("success");
    } finally {
      await first.close();
    }
    const second = await openFawn(url);
    try {
      const tuple = await second.checkpointer.getTuple(threadConfig("durable"));
      expect(tuple?.checkpoint.channel_values.messages).toHaveLength(2);
    } finally {
      await second.close();
    }
  });

  it("stays MemorySaver for memory:", async () => {
    const fawn = await openFawn("memory:");
    try {
      expect(fawn.checkpointer).toBeInstanceOf(MemorySaver);
    } finally {
      await fawn.close();
    }
  });
});
