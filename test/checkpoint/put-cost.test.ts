/**
 * What a put and a read cost, in counts that do not depend on the machine's load: messages
 * serialized and hashed, messages decoded, statements and transactions. A put carries the
 * encoding of every message it has seen before (checked unchanged by a snapshot), so a turn
 * serializes only its new messages however long the thread is; a read decodes each stored
 * message once and hands out copies. The soundness half: edits made in place — anywhere in a
 * message, on objects the saver serialized or handed out — are still stored.
 */
import { AIMessage, type BaseMessage, HumanMessage, isBaseMessage } from "@langchain/core/messages";
import { type Checkpoint, JsonPlusSerializer, uuid6 } from "@langchain/langgraph-checkpoint";
import { afterEach, describe, expect, it } from "vitest";
import { SqlCheckpointSaver } from "../../src/stores/sql/checkpoint/sql-checkpoint-saver.js";
import { openSqlDatabase, type SqlDatabase } from "../../src/stores/sql/database.js";
import { checkpointBackends } from "./backends.js";
import { buildChatGraph, humanTurn, threadConfig } from "./chat-graph.js";
import { countingDatabase } from "./counting-database.js";

const backends = await checkpointBackends("checkpoint_put_cost");

/** The default serializer, counting the messages it serializes and decodes. */
class CountingSerde extends JsonPlusSerializer {
  messageDumps = 0;
  messageLoads = 0;

  override async dumpsTyped(value: unknown): Promise<[string, Uint8Array]> {
    if (isBaseMessage(value)) this.messageDumps += 1;
    return super.dumpsTyped(value);
  }

  override async loadsTyped(type: string, data: Uint8Array | string): Promise<unknown> {
    const value: unknown = await super.loadsTyped(type, data);
    if (isBaseMessage(value)) this.messageLoads += 1;
    return value;
  }
}

/** A thread written checkpoint by checkpoint, each a new version of `messages`. */
function directThread(saver: SqlCheckpointSaver, threadId: string) {
  let parentId: string | undefined;
  let version: number | undefined;
  return {
    async put(messages: unknown[]): Promise<void> {
      version = saver.getNextVersion(version);
      const checkpoint: Checkpoint = {
        v: 4,
        id: uuid6(-1),
        ts: new Date().toISOString(),
        channel_values: { messages },
        channel_versions: { messages: version },
        versions_seen: {},
      };
      await saver.put(
        { configurable: { thread_id: threadId, checkpoint_ns: "", checkpoint_id: parentId } },
        checkpoint,
        { source: "loop", step: 0, parents: {} },
        { messages: version },
      );
      parentId = checkpoint.id;
    },
    async read(reader: SqlCheckpointSaver = saver): Promise<BaseMessage[]> {
      const tuple = await reader.getTuple({ configurable: { thread_id: threadId } });
      return tuple?.checkpoint.channel_values.messages as BaseMessage[];
    },
  };
}

/** What a message serializes to: equal for equal stored content, whatever the instances. */
const stored = (messages: unknown): unknown => JSON.parse(JSON.stringify(messages));

function conversation(): BaseMessage[] {
  return [
    new HumanMessage({ id: "h-1", content: "Weather in Oslo for two days?" }),
    new AIMessage({
      id: "ai-1",
      content: [{ type: "text", text: "Looking it up." }],
      tool_calls: [{ id: "call-1", name: "weather", args: { city: "Oslo", days: [1, 2] } }],
    }),
    new AIMessage({ id: "ai-2", content: "Sunny both days." }),
  ];
}

describe.each(backends)("what a put and a read cost ($name)", (backend) => {
  let database: SqlDatabase | undefined;

  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it("a chat turn serializes and hashes only its two new messages, however long the thread", async () => {
    database = await openSqlDatabase(backend.url());
    const serde = new CountingSerde();
    let serialized = 0;
    let reused = 0;
    const saver = new SqlCheckpointSaver(database, {
      serde,
      onListEncoded: (counts) => {
        serialized += counts.serialized;
        reused += counts.reused;
      },
    });
    const graph = buildChatGraph(saver);
    const thread = `${backend.name}-turns-${Date.now()}`;
    const perTurn: Array<{ serialized: number; dumps: number; loads: number }> = [];
    for (let turn = 1; turn <= 40; turn++) {
      serialized = 0;
      serde.messageDumps = 0;
      serde.messageLoads = 0;
      await graph.invoke(humanTurn(turn), threadConfig(thread));
      perTurn.push({ serialized, dumps: serde.messageDumps, loads: serde.messageLoads });
    }
    // Each turn adds a question and an answer: those two are serialized (and hashed) once each;
    // every earlier message is carried over. The read at the start of a turn decodes only the
    // two messages the previous turn added.
    for (const [index, turn] of perTurn.entries()) {
      expect(turn.serialized).toBe(2);
      expect(turn.dumps).toBe(2);
      expect(turn.loads).toBe(index === 0 ? 0 : 2);
    }
    expect(reused).toBeGreaterThan(40 * 40);
    const state = await graph.getState(threadConfig(thread));
    expect(state.values.messages).toHaveLength(80);
  });

  it("a put that appends a message is one transaction of a few statements, whatever the length", async () => {
    const opened = await openSqlDatabase(backend.url(), { countTraffic: true });
    database = opened;
    const { database: counted, counts } = countingDatabase(opened);
    const saver = new SqlCheckpointSaver(counted);
    const thread = directThread(saver, `${backend.name}-statements-${Date.now()}`);
    const messages: unknown[] = [];
    for (let i = 0; i < 200; i++)
      messages.push(new HumanMessage({ id: `m-${i}`, content: `${i}` }));
    await thread.put(messages);
    for (const length of [201, 202, 203]) {
      messages.push(new AIMessage({ id: `m-${length}`, content: "appended" }));
      counts.statements = 0;
      counts.transactions = 0;
      const before = opened.traffic()?.roundTrips ?? 0;
      await thread.put([...messages]);
      const after = opened.traffic()?.roundTrips ?? 0;
      if (backend.name === "sqlite") {
        // The saver wrote the parent, so it knows the parent's list ids: no read, one insert per
        // table — messages, list, blobs, checkpoint — in one self-contained batch.
        expect(counts.transactions).toBe(0);
        expect(counts.statements).toBe(4);
        expect(after - before).toBe(1);
      } else {
        expect(counts.transactions).toBe(1);
        // The thread lock, the read, and one statement inserting everything.
        expect(counts.statements).toBe(3);
      }
    }
    expect(stored(await thread.read(new SqlCheckpointSaver(opened)))).toEqual(stored(messages));
  });

  it.runIf(backend.name === "sqlite")(
    "a chat turn costs SQLite's worker as many round trips late in a thread as early",
    async () => {
      const opened = await openSqlDatabase(backend.url(), { countTraffic: true });
      database = opened;
      const graph = buildChatGraph(new SqlCheckpointSaver(opened));
      const thread = `${backend.name}-turn-traffic-${Date.now()}`;
      const roundTrips: number[] = [];
      for (let turn = 1; turn <= 30; turn++) {
        const before = opened.traffic()?.roundTrips ?? 0;
        await graph.invoke(humanTurn(turn), threadConfig(thread));
        roundTrips.push((opened.traffic()?.roundTrips ?? 0) - before);
      }
      // The run's read (its row, then blobs and pending writes in one statement), three puts of
      // two round trips each, two batches of pending writes of one each.
      expect(new Set(roundTrips.slice(2))).toEqual(new Set([roundTrips[2]]));
      expect(roundTrips[2]).toBeLessThanOrEqual(10);
    },
  );

  it("reads decode each stored message once and hand out objects of their own", async () => {
    database = await openSqlDatabase(backend.url());
    const serde = new CountingSerde();
    const saver = new SqlCheckpointSaver(database, { serde });
    const thread = directThread(saver, `${backend.name}-reads-${Date.now()}`);
    await thread.put(conversation());
    const first = await thread.read();
    const second = await thread.read();
    for await (const _ of saver.list({ configurable: { thread_id: "unused" } })) {
      // Listing another thread decodes nothing of this one.
    }
    expect(serde.messageLoads).toBe(3);
    expect(second).toStrictEqual(first);
    first.forEach((message, i) => {
      expect(message).not.toBe(second[i]);
      expect(message).toBeInstanceOf(i === 0 ? HumanMessage : AIMessage);
    });
    const fresh = await thread.read(new SqlCheckpointSaver(database));
    expect(first).toStrictEqual(fresh);
    // A reader changing its copy changes nobody else's.
    first[0] = new HumanMessage({ id: "other", content: "other" });
    (second[1] as AIMessage).content = "changed";
    expect(stored(await thread.read())).toEqual(stored(conversation()));
  });

  it("messages that share an id across threads and branches keep their own content", async () => {
    const opened = await openSqlDatabase(backend.url());
    database = opened;
    const saver = new SqlCheckpointSaver(opened);
    const stamp = Date.now();
    const first = directThread(saver, `${backend.name}-ids-a-${stamp}`);
    const second = directThread(saver, `${backend.name}-ids-b-${stamp}`);
    const answer = (content: string) => new AIMessage({ id: "answer", content });
    await first.put([answer("first thread")]);
    await second.put([answer("second thread")]);
    await first.put([answer("first thread"), answer("again")]);
    const fresh = new SqlCheckpointSaver(opened);
    expect(stored(await first.read(fresh))).toEqual(
      stored([answer("first thread"), answer("again")]),
    );
    expect(stored(await second.read(fresh))).toEqual(stored([answer("second thread")]));
  });

  it("edits made in place are stored, on objects the saver serialized or handed out", async () => {
    const opened = await openSqlDatabase(backend.url());
    database = opened;
    const saver = new SqlCheckpointSaver(opened);
    const thread = directThread(saver, `${backend.name}-edits-${Date.now()}`);
    const expectStored = async (messages: BaseMessage[]): Promise<void> => {
      // A saver with empty caches reads what the database holds.
      expect(stored(await thread.read(new SqlCheckpointSaver(opened)))).toEqual(stored(messages));
    };
    const messages = conversation();
    await thread.put(messages);
    const asked = messages[1] as AIMessage;

    const call = asked.tool_calls?.[0];
    if (call) call.args.city = "Paris";
    await thread.put(messages);
    await expectStored(messages);

    (asked.content as Array<Record<string, unknown>>).push({ type: "text", text: "Also Rome." });
    await thread.put(messages);
    await expectStored(messages);

    (messages[2] as AIMessage).content = "Rain both days.";
    await thread.put(messages);
    await expectStored(messages);

    // Same id, new object (what the messages reducer does for a replacement), then a removal.
    messages[0] = new HumanMessage({ id: "h-1", content: "Weather in Paris?" });
    await thread.put(messages);
    await expectStored(messages);
    messages.splice(1, 1);
    await thread.put(messages);
    await expectStored(messages);

    // Copies handed out by a read are tracked too: an edit to one is stored on the next put.
    const read = await thread.read();
    (read[0] as HumanMessage).content = "Weather in Rome?";
    const metadata = read[1]?.response_metadata as Record<string, unknown> | undefined;
    if (metadata) metadata.edited = true;
    await thread.put(read);
    await expectStored(read);
    expect((await thread.read())[0]?.content).toBe("Weather in Rome?");
  });
});
