/**
 * The read of a checkpoint's blobs and pending writes: one statement for a usual read, one per
 * 500 keys beyond that — every row comes back either way, typed as its own table's row.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fetchBlobsAndWrites } from "../../src/stores/sql/checkpoint/blobs-and-writes.js";
import { openSqlDatabase, type SqlDatabase } from "../../src/stores/sql/database.js";
import { checkpointBackends } from "./backends.js";
import { countingDatabase } from "./counting-database.js";

const backends = await checkpointBackends("checkpoint_blobs_and_writes");
const bytes = (text: string) => new TextEncoder().encode(text);

describe.each(backends)("fetching blobs and pending writes ($name)", (backend) => {
  let database: SqlDatabase | undefined;

  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it("returns every blob and write, in one statement for a usual read and in parts beyond", async () => {
    const opened = await openSqlDatabase(backend.url());
    database = opened;
    const threadId = `${backend.name}-fetch-${Date.now()}`;
    const versions = Array.from({ length: 1_100 }, (_, i) => `${i + 1}.5`);
    for (let i = 0; i < versions.length; i += 200) {
      await opened.db
        .insertInto("checkpoint_blobs")
        .values(
          versions.slice(i, i + 200).map((version, j) => ({
            thread_id: threadId,
            checkpoint_ns: "",
            channel: `channel-${i + j}`,
            version,
            kind: j % 2 === 0 ? "value" : "list",
            value_type: j % 2 === 0 ? "json" : null,
            value: j % 2 === 0 ? bytes(`"value ${version}"`) : null,
            list_id: j % 2 === 0 ? null : `list-${version}`,
          })),
        )
        .execute();
    }
    await opened.db
      .insertInto("checkpoint_writes")
      .values(
        [
          { checkpoint_id: "c-1", task_id: "t", idx: 0, channel: "a", task_path: "p" },
          { checkpoint_id: "c-1", task_id: "t", idx: -1, channel: "__error__", task_path: "" },
          { checkpoint_id: "c-2", task_id: "u", idx: 3, channel: "b", task_path: "" },
        ].map((write) => ({
          ...write,
          thread_id: threadId,
          checkpoint_ns: "",
          value_type: "json",
          value: bytes(`"${write.channel}"`),
        })),
      )
      .execute();
    const { database: counted, counts } = countingDatabase(opened);
    const executor = counted.executor();

    const usual = await fetchBlobsAndWrites(executor, {
      threadId,
      ns: "",
      versions: versions.slice(0, 3),
      checkpointIds: ["c-1"],
    });
    expect(counts.statements).toBe(1);
    expect(usual.blobs.map((blob) => blob.version).sort()).toEqual(versions.slice(0, 3).sort());
    expect(usual.blobs.find((blob) => blob.version === "2.5")).toMatchObject({
      kind: "list",
      list_id: "list-2.5",
      value: null,
    });
    const value = usual.blobs.find((blob) => blob.version === "1.5");
    expect(new TextDecoder().decode(value?.value ?? new Uint8Array())).toBe('"value 1.5"');
    expect(
      usual.writes.map(({ checkpoint_id, task_id, idx, channel, task_path }) => ({
        checkpoint_id,
        task_id,
        idx,
        channel,
        task_path,
      })),
    ).toEqual(
      expect.arrayContaining([
        { checkpoint_id: "c-1", task_id: "t", idx: 0, channel: "a", task_path: "p" },
        { checkpoint_id: "c-1", task_id: "t", idx: -1, channel: "__error__", task_path: "" },
      ]),
    );
    expect(usual.writes).toHaveLength(2);

    counts.statements = 0;
    const long = await fetchBlobsAndWrites(executor, {
      threadId,
      ns: "",
      versions,
      checkpointIds: ["c-1", "c-2", "c-missing"],
    });
    expect(counts.statements).toBe(4);
    expect(long.blobs).toHaveLength(versions.length);
    expect(long.writes).toHaveLength(3);
  });
});
