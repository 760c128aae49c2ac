/**
 * What a list version costs: an append is stored as a range of the parent's list plus the new
 * message, also when the parent checkpoint carried the list over without changing it (as
 * LangGraph's input checkpoints do) — the case the 300-turn growth test exercises at scale.
 */
import { type Checkpoint, uuid6 } from "@langchain/langgraph-checkpoint";
import { afterEach, describe, expect, it } from "vitest";
import { parseScript } from "../../src/stores/sql/checkpoint/list-script.js";
import { SqlCheckpointSaver } from "../../src/stores/sql/checkpoint/sql-checkpoint-saver.js";
import { openSqlDatabase, type SqlDatabase } from "../../src/stores/sql/database.js";
import { checkpointBackends } from "./backends.js";

const backends = await checkpointBackends("checkpoint_list_deltas");

describe.each(backends)("list versions are deltas ($name)", (backend) => {
  let database: SqlDatabase | undefined;

  afterEach(async () => {
    await database?.close();
  });

  it("an append after a checkpoint that carried the list is one range plus the new message", async () => {
    database = await openSqlDatabase(backend.url());
    const saver = new SqlCheckpointSaver(database);
    const thread = `${backend.name}-deltas-${Date.now()}`;
    const messages = ["first message", "second message"];
    let parentId: string | undefined;
    let version = saver.getNextVersion(undefined);
    const put = async (
      values: Record<string, unknown>,
      versions: Record<string, number>,
      newVersions: Record<string, number>,
    ): Promise<void> => {
      const checkpoint: Checkpoint = {
        v: 4,
        id: uuid6(-1),
        ts: new Date().toISOString(),
        channel_values: values,
        channel_versions: versions,
        versions_seen: {},
      };
      await saver.put(
        { configurable: { thread_id: thread, checkpoint_ns: "", checkpoint_id: parentId } },
        checkpoint,
        { source: "loop", step: 0, parents: {} },
        newVersions,
      );
      parentId = checkpoint.id;
    };
    await put({ messages }, { messages: version }, { messages: version });
    // Only another channel changes: the list is carried over, not rewritten.
    const other = saver.getNextVersion(version);
    await put({ messages, other: 1 }, { messages: version, other }, { other });
    version = saver.getNextVersion(other);
    await put(
      { messages: [...messages, "third message"], other: 1 },
      { messages: version, other },
      { messages: version },
    );

    const lists = await database.db
      .selectFrom("checkpoint_lists")
      .select(["base_id", "script", "length"])
      .where("thread_id", "=", thread)
      .execute();
    expect(lists).toHaveLength(2);
    const appended = lists.find((list) => list.base_id !== null);
    expect(appended?.length).toBe(3);
    const script = parseScript(appended?.script ?? "[]");
    expect(script[0]).toEqual([0, 2]);
    expect(script).toHaveLength(2);
    const head = await saver.getTuple({ configurable: { thread_id: thread } });
    expect(head?.checkpoint.channel_values.messages).toEqual([...messages, "third message"]);
  });
});
