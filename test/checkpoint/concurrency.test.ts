/**
 * Two writers on one thread, each through its own database handle and saver (separate caches, as
 * two processes would have), interleaving puts on two branches that share a root; and a thread
 * deletion racing a writer. Every checkpoint must read back exactly what was put, and the tables
 * must stay sound (no list without its base, no message row without a list using it).
 */
import { HumanMessage } from "@langchain/core/messages";
import { afterEach, describe, expect, it } from "vitest";
import { SqlCheckpointSaver } from "../../src/stores/sql/checkpoint/sql-checkpoint-saver.js";
import { openSqlDatabase, type SqlDatabase } from "../../src/stores/sql/database.js";
import { checkpointBackends } from "./backends.js";
import { integrityProblems } from "./checkpoint-tables.js";
import { messagesAt, type PutResult, putStep } from "./direct-puts.js";

const STEPS = 30;
const backends = await checkpointBackends("checkpoint_concurrency");

function message(label: string): HumanMessage {
  return new HumanMessage({ id: label, content: `message ${label}` });
}

describe.each(backends)("concurrent checkpoint writers ($name)", (backend) => {
  const opened: SqlDatabase[] = [];

  afterEach(async () => {
    for (const database of opened.splice(0)) await database.close();
  });

  async function twoHandles(): Promise<[SqlDatabase, SqlDatabase]> {
    const url = backend.url();
    const first = await openSqlDatabase(url);
    const second = await openSqlDatabase(url);
    opened.push(first, second);
    return [first, second];
  }

  it("two writers extending two branches of one thread keep both lineages intact", async () => {
    const [one, two] = await twoHandles();
    const writers = [new SqlCheckpointSaver(one), new SqlCheckpointSaver(two)];
    const thread = `${backend.name}-two-writers-${Date.now()}`;
    const rootMessages = [message("root-1"), message("root-2")];
    const root = await putStep(writers[0] as SqlCheckpointSaver, thread, undefined, {
      messages: rootMessages,
      counter: 0,
    });
    const expected = new Map<string, string[]>();

    const extend = async (saver: SqlCheckpointSaver, branch: string): Promise<void> => {
      let parent: PutResult = root;
      const messages = [...rootMessages];
      for (let i = 1; i <= STEPS; i++) {
        messages.push(message(`${branch}-${i}`));
        // Every few steps the branch drops its oldest message, like a summarization would.
        if (i % 7 === 0) messages.splice(0, 1);
        parent = await putStep(saver, thread, parent, { messages: [...messages], counter: i });
        expected.set(
          parent.checkpointId,
          messages.map((m) => String(m.id)),
        );
      }
    };
    await Promise.all([
      extend(writers[0] as SqlCheckpointSaver, "a"),
      extend(writers[1] as SqlCheckpointSaver, "b"),
    ]);

    const reader = new SqlCheckpointSaver(one);
    for (const [checkpointId, ids] of expected) {
      const messages = (await messagesAt(reader, thread, checkpointId)) as HumanMessage[];
      expect(messages.map((m) => m.id)).toEqual(ids);
    }
    let listed = 0;
    for await (const tuple of reader.list({ configurable: { thread_id: thread } })) {
      listed += 1;
      expect(tuple.checkpoint.channel_values.counter).toBe(tuple.metadata?.step);
    }
    expect(listed).toBe(STEPS * 2 + 1);
    expect(await integrityProblems(one)).toEqual([]);
  }, 120_000);

  it("a thread deleted while a writer puts and a reader lists leaves no orphaned rows", async () => {
    const [one, two] = await twoHandles();
    const writer = new SqlCheckpointSaver(one);
    const deleter = new SqlCheckpointSaver(two);
    // The race is timing-dependent; a few rounds with the deletion at different points make
    // a missing lock show up reliably.
    for (const deleteAfter of [3, 9, 15, 21]) {
      const thread = `${backend.name}-delete-race-${deleteAfter}-${Date.now()}`;
      const written: Array<{ result: PutResult; ids: string[] }> = [];
      let writing = true;

      const write = async (): Promise<void> => {
        let parent: PutResult | undefined;
        const messages: HumanMessage[] = [];
        for (let i = 0; i < STEPS; i++) {
          messages.push(message(`m-${i}`));
          parent = await putStep(writer, thread, parent, { messages: [...messages], counter: i });
          written.push({ result: parent, ids: messages.map((m) => String(m.id)) });
        }
        writing = false;
      };
      const remove = async (): Promise<void> => {
        while (written.length < deleteAfter) await new Promise((resolve) => setTimeout(resolve, 1));
        await deleter.deleteThread(thread);
      };
      // A cold reader on the deleting handle: every list it sees must be complete.
      const read = async (): Promise<void> => {
        while (writing) {
          const reader = new SqlCheckpointSaver(two);
          for await (const tuple of reader.list(
            { configurable: { thread_id: thread } },
            { limit: 5 },
          )) {
            expect(Array.isArray(tuple.checkpoint.channel_values.messages)).toBe(true);
          }
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
      };
      await Promise.all([write(), remove(), read()]);

      const reader = new SqlCheckpointSaver(two);
      for (const { result, ids } of written) {
        const messages = (await messagesAt(reader, thread, result.checkpointId)) as
          | HumanMessage[]
          | undefined;
        if (messages !== undefined) expect(messages.map((m) => m.id)).toEqual(ids);
      }
      expect(await integrityProblems(one)).toEqual([]);
      await reader.deleteThread(thread);
    }
    expect(await integrityProblems(one)).toEqual([]);
  }, 120_000);
});
