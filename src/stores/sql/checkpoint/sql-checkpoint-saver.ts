import type { RunnableConfig } from "@langchain/core/runnables";
import {
  BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointTuple,
  copyCheckpoint,
  type PendingWrite,
  type SerializerProtocol,
  WRITES_IDX_MAP,
} from "@langchain/langgraph-checkpoint";
import type { FenceableCheckpointSaver } from "../../../ports/fenced-checkpointer.js";
import type { FencedWrite, WriteFence } from "../../../ports/write-fence.js";
import type { SqlDatabase, SqlExecutor } from "../database.js";
import { withStoreErrors } from "../sql-errors.js";
import { assertOwnerInTransaction } from "../sql-fence.js";
import { sqlStatement } from "../sql-text.js";
import { nextChannelVersion, versionKey } from "./channel-version.js";
import { checkpointConfig, readAddress, requireAddress } from "./checkpoint-config.js";
import { decodeCheckpoint } from "./checkpoint-decoder.js";
import { type CheckpointRow, type LoadedCheckpoint, loadCheckpoints } from "./checkpoint-loader.js";
import {
  type EncodedChannel,
  type EncodedCheckpoint,
  type PlannedPut,
  writeCheckpoint,
} from "./checkpoint-writer.js";
import { ElementCodec, type ElementCodecOptions } from "./element-codec.js";
import { FencedCheckpointSaver } from "./fenced-checkpoint-saver.js";
import { listCheckpoints } from "./list-checkpoints.js";
import { ListStore, type ListStoreOptions } from "./list-store.js";
import { putInOneBatch } from "./one-batch-put.js";
import { writePendingWrites } from "./pending-writes.js";
import { parseListRefs } from "./put-base.js";
import type { FinalBatch } from "./put-statements.js";
import { lockThreadCheckpoints } from "./thread-lock.js";
import { WeightedLru } from "./weighted-lru.js";

/** Entries (one per list channel, plus one) of the checkpoints' list ids kept for puts. */
const CACHED_CHECKPOINT_LISTS = 200_000;

const checkpointKey = (threadId: string, ns: string, checkpointId: string): string =>
  `${threadId}\u0000${ns}\u0000${checkpointId}`;

const HEAD_ROW =
  "select * from checkpoints where thread_id = ? and checkpoint_ns = ? order by checkpoint_id desc limit 1";
const ROW_BY_ID =
  "select * from checkpoints where thread_id = ? and checkpoint_ns = ? and checkpoint_id = ?";

export interface SqlCheckpointSaverOptions extends ListStoreOptions, ElementCodecOptions {
  serde?: SerializerProtocol;
  /** Channels stored element by element as edit scripts (default `["messages"]`). */
  listChannels?: readonly string[];
  /**
   * Called after each committed `put`/`putWrites` with the payload bytes it wrote: serialized
   * checkpoint header, metadata, channel values, new messages, list scripts and write values
   * (key columns and index overhead are not counted). For tests and benches.
   */
  onBytesWritten?: (bytes: number, operation: "put" | "putWrites") => void;
  /**
   * Called for each list channel a `put` encodes: how many elements it serialized and hashed,
   * and how many it carried over unchanged from earlier puts and reads. For tests and benches.
   */
  onListEncoded?: (counts: { serialized: number; reused: number }) => void;
}

const CHECKPOINT_TABLES = [
  "checkpoint_writes",
  "checkpoint_blobs",
  "checkpoint_lists",
  "checkpoint_messages",
  "checkpoints",
] as const;

/**
 * LangGraph checkpoint saver on Fawn's SQL database (SQLite or PostgreSQL, through the shared
 * Kysely layer). Storage grows linearly with a conversation: a checkpoint row holds no values,
 * each channel value is stored once per version, and list channels (`messages`) store each
 * message once per thread plus a few bytes of edit script per version. See
 * `checkpoint-migration.ts` for the tables and `list-script.ts` for the list encoding.
 */
export class SqlCheckpointSaver extends BaseCheckpointSaver implements FenceableCheckpointSaver {
  private readonly lists: ListStore;
  private readonly codec: ElementCodec;
  private readonly listChannels: ReadonlySet<string>;
  private readonly onBytesWritten: SqlCheckpointSaverOptions["onBytesWritten"];
  private readonly onListEncoded: SqlCheckpointSaverOptions["onListEncoded"];
  /**
   * `{channel: list_id}` of checkpoints this process wrote or read, so a put whose parent is
   * among them needs no read (see `putInOneBatch`). Rows are immutable: an entry can outlive its
   * checkpoint (a deleted thread), which the put's guard then notices, but never be wrong.
   */
  private readonly checkpointLists = new WeightedLru<string, Record<string, string>>(
    CACHED_CHECKPOINT_LISTS,
    (refs) => Object.keys(refs).length + 1,
  );

  constructor(
    private readonly database: SqlDatabase,
    options: SqlCheckpointSaverOptions = {},
  ) {
    super(options.serde);
    this.lists = new ListStore(options);
    this.codec = new ElementCodec(this.serde, options);
    this.listChannels = new Set(options.listChannels ?? ["messages"]);
    this.onBytesWritten = options.onBytesWritten;
    this.onListEncoded = options.onListEncoded;
  }

  override getNextVersion(current: number | string | undefined): number {
    return nextChannelVersion(current);
  }

  /** This saver as one run's graph must write through it: see `FenceableCheckpointSaver`. */
  withFence(fence: WriteFence): BaseCheckpointSaver {
    return new FencedCheckpointSaver(this, fence);
  }

  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const { threadId, ns, checkpointId } = readAddress(config);
    if (threadId === undefined) return undefined;
    const [loaded] = await this.read(threadId, async (trx) => {
      // Every run reads its thread's head (twice): SQL text, not built per call (sql-text.ts).
      const { rows } = await trx.executeQuery<CheckpointRow>(
        checkpointId === undefined
          ? sqlStatement(this.database.dialect, HEAD_ROW, [threadId, ns])
          : sqlStatement(this.database.dialect, ROW_BY_ID, [threadId, ns, checkpointId]),
      );
      const [row] = rows;
      return row === undefined ? [] : this.load(trx, threadId, [row]);
    });
    if (loaded === undefined) return undefined;
    const { row } = loaded;
    this.checkpointLists.set(
      checkpointKey(threadId, row.checkpoint_ns, row.checkpoint_id),
      parseListRefs(row.list_refs),
    );
    return this.decode(loaded);
  }

  async *list(
    config: RunnableConfig,
    options: CheckpointListOptions = {},
  ): AsyncGenerator<CheckpointTuple> {
    yield* listCheckpoints(
      {
        executor: () => this.database.executor(),
        serde: this.serde,
        read: (threadId, fn) => this.read(threadId, fn),
        load: (trx, threadId, rows) => this.load(trx, threadId, rows),
        decode: (loaded) => this.decode(loaded),
        wrap: withStoreErrors,
      },
      config,
      options,
    );
  }

  async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
    options: FencedWrite = {},
  ): Promise<RunnableConfig> {
    const address = requireAddress(config, "put a checkpoint");
    const prepared = copyCheckpoint(checkpoint);
    const { channel_values: values, ...header } = prepared;
    // Serialize before the transaction: CPU work must not hold the thread lock (or SQLite's
    // single connection).
    const [[checkpointType, checkpointData], [metadataType, metadataData], newValues] =
      await Promise.all([
        this.serde.dumpsTyped(header),
        this.serde.dumpsTyped(metadata),
        Promise.all(
          Object.entries(newVersions).map(([channel, version]) =>
            this.encodeChannel(address.threadId, values, channel, versionKey(version)),
          ),
        ),
      ]);
    const { threadId, ns } = address;
    const { fence } = options;
    const encoded: EncodedCheckpoint = {
      address: { threadId, ns, checkpointId: prepared.id },
      parentId: address.checkpointId,
      checkpointType,
      checkpointData,
      metadataType,
      metadataData,
      channels: Object.keys(prepared.channel_versions),
      newValues,
      fenced: fence !== undefined,
    };
    const planned =
      (await this.putWithoutReads(encoded, fence)) ??
      (await this.write(threadId, "put a checkpoint", fence, (trx, finish) =>
        writeCheckpoint(trx, this.database.dialect, finish, this.lists, encoded),
      ));
    this.checkpointLists.set(checkpointKey(threadId, ns, prepared.id), planned.listRefs);
    const { result } = planned;
    // The next put of this thread diffs against these refs and the next read decodes these
    // elements; both are immutable (fresh list ids, content-addressed elements), so caching
    // them can never go stale.
    for (const list of result.lists) {
      this.lists.remember(list.listId, list.refs);
      for (const element of list.inserted) {
        this.lists.rememberElement(threadId, element.ref, element);
      }
    }
    this.onBytesWritten?.(result.bytes, "put");
    return checkpointConfig(threadId, ns, prepared.id);
  }

  async putWrites(
    config: RunnableConfig,
    writes: PendingWrite[],
    taskId: string,
    taskPath = "",
    options: FencedWrite = {},
  ): Promise<void> {
    const { threadId, ns, checkpointId } = requireAddress(config, "put writes");
    if (checkpointId === undefined) {
      throw new Error('Failed to put writes: the config has no "checkpoint_id" in "configurable".');
    }
    const rows = await Promise.all(
      writes.map(async ([channel, value], index) => {
        const [type, data] = await this.serde.dumpsTyped(value);
        return {
          thread_id: threadId,
          checkpoint_ns: ns,
          checkpoint_id: checkpointId,
          task_id: taskId,
          idx: WRITES_IDX_MAP[channel] ?? index,
          channel,
          value_type: type,
          value: data,
          task_path: taskPath,
        };
      }),
    );
    const { fence } = options;
    if (fence === undefined && this.database.dialect === "sqlite" && this.outermost()) {
      // SQLite needs no thread lock (every transaction there is BEGIN IMMEDIATE): the writes go
      // as one self-contained batch, one message to the worker.
      await withStoreErrors("put pending writes", () =>
        writePendingWrites(
          this.database.dialect,
          (queries) => this.database.executeBatch(queries),
          rows,
        ),
      );
    } else {
      await this.write(threadId, "put pending writes", fence, (_trx, finish) =>
        writePendingWrites(this.database.dialect, finish, rows, fence !== undefined),
      );
    }
    this.onBytesWritten?.(
      rows.reduce((sum, row) => sum + row.value.byteLength, 0),
      "putWrites",
    );
  }

  async deleteThread(threadId: string, options: FencedWrite = {}): Promise<void> {
    await this.write(threadId, "delete a thread's checkpoints", options.fence, async (trx) => {
      for (const table of CHECKPOINT_TABLES) {
        await trx.deleteFrom(table).where("thread_id", "=", threadId).execute();
      }
    });
  }

  private async encodeChannel(
    threadId: string,
    values: Record<string, unknown>,
    channel: string,
    version: string,
  ): Promise<EncodedChannel> {
    if (!Object.hasOwn(values, channel)) return { channel, version, kind: "empty" };
    const value = values[channel];
    if (this.listChannels.has(channel) && Array.isArray(value)) {
      const { elements, serialized, reused } = await this.codec.encode(threadId, value);
      this.onListEncoded?.({ serialized, reused });
      return { channel, version, kind: "list", elements };
    }
    const [type, data] = await this.serde.dumpsTyped(value);
    return { channel, version, kind: "value", type, data };
  }

  private load(
    trx: SqlExecutor,
    threadId: string,
    rows: readonly CheckpointRow[],
  ): Promise<LoadedCheckpoint[]> {
    return loadCheckpoints(trx, this.serde, this.lists, threadId, rows, (refs) =>
      this.codec.cachedDecodings(refs),
    );
  }

  private decode(loaded: LoadedCheckpoint): Promise<CheckpointTuple> {
    return decodeCheckpoint(
      this.serde,
      loaded,
      () => this.getNextVersion(undefined),
      (refs, from) =>
        this.codec.decodeList(from.row.thread_id, refs, from.decodings, from.elements),
    );
  }

  /**
   * SQLite, outside a caller's transaction, with the parent's list ids known: the put in one
   * batch. Null when it does not apply or the parent has gone (then the general path runs).
   */
  private putWithoutReads(
    put: EncodedCheckpoint,
    fence: WriteFence | undefined,
  ): Promise<PlannedPut | null> {
    if (this.database.dialect !== "sqlite" || !this.outermost()) return Promise.resolve(null);
    const { threadId, ns } = put.address;
    const parentLists =
      put.parentId === undefined
        ? {}
        : this.checkpointLists.get(checkpointKey(threadId, ns, put.parentId));
    if (parentLists === undefined) return Promise.resolve(null);
    return withStoreErrors("put a checkpoint", () =>
      putInOneBatch(this.database, this.lists, put, parentLists, fence),
    );
  }

  /** A read transaction sharing the thread lock, so it never sees half of a write or delete. */
  private read<T>(threadId: string, fn: (trx: SqlExecutor) => Promise<T>): Promise<T> {
    return withStoreErrors("read checkpoints", () =>
      this.database.transaction(async (trx) => {
        await lockThreadCheckpoints(trx, this.database.dialect, threadId, "shared");
        return fn(trx);
      }),
    );
  }

  /**
   * A write transaction holding the thread lock: writers of one thread never interleave. `fn`
   * ends it with `finish`, whose batch carries the COMMIT on SQLite when the transaction already
   * sent a statement — unless the call joined a transaction opened by its caller, which must stay
   * open for the caller's own statements. A fence is checked first, in the same transaction (on
   * PostgreSQL with a share lock on the run's row until commit): a takeover either waits for
   * this write or makes it write nothing.
   */
  private write<T>(
    threadId: string,
    action: string,
    fence: WriteFence | undefined,
    fn: (trx: SqlExecutor, finish: FinalBatch) => Promise<T>,
  ): Promise<T> {
    const outermost = this.outermost();
    const finish: FinalBatch = (queries, afterStatements) =>
      this.database.executeBatch(queries, { commit: outermost && afterStatements });
    return withStoreErrors(action, () =>
      this.database.transaction(async (trx) => {
        await lockThreadCheckpoints(trx, this.database.dialect, threadId, "exclusive");
        if (fence) await assertOwnerInTransaction(trx, this.database.dialect, fence, action);
        return fn(trx, finish);
      }),
    );
  }

  /** Whether no transaction is open in this async context (one opened here would be its own). */
  private outermost(): boolean {
    return this.database.executor() === this.database.db;
  }
}
