import { isDeepStrictEqual } from "node:util";
import type { RunnableConfig } from "@langchain/core/runnables";
import type {
  CheckpointListOptions,
  CheckpointTuple,
  SerializerProtocol,
} from "@langchain/langgraph-checkpoint";
import type { SqlExecutor } from "../database.js";
import { readAddress } from "./checkpoint-config.js";
import type { CheckpointRow, LoadedCheckpoint } from "./checkpoint-loader.js";
import { chunked, LOOKUP_CHUNK } from "./list-store.js";

/** What `listCheckpoints` needs from the saver. */
export interface ListContext {
  executor(): SqlExecutor;
  serde: SerializerProtocol;
  read<T>(threadId: string, fn: (trx: SqlExecutor) => Promise<T>): Promise<T>;
  load(trx: SqlExecutor, threadId: string, rows: CheckpointRow[]): Promise<LoadedCheckpoint[]>;
  decode(loaded: LoadedCheckpoint): Promise<CheckpointTuple>;
  wrap<T>(action: string, fn: () => Promise<T>): Promise<T>;
}

/** Checkpoints examined per round (metadata filters are applied in JS, so pages may shrink). */
const PAGE_ROWS = 50;

interface PageKey {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
}

interface Scope {
  threadId: string | undefined;
  ns: string | undefined;
  checkpointId: string | undefined;
  before: string | undefined;
}

function keyOf(row: PageKey): string {
  return `${row.thread_id}\u0000${row.checkpoint_ns}\u0000${row.checkpoint_id}`;
}

function matchesFilter(metadata: unknown, filter: Record<string, unknown> | undefined): boolean {
  if (filter === undefined) return true;
  const record: Record<string, unknown> =
    typeof metadata === "object" && metadata !== null ? { ...metadata } : {};
  return Object.entries(filter).every(([key, value]) => isDeepStrictEqual(record[key], value));
}

/**
 * Newest first (by checkpoint id, then thread and namespace), paged by keyset so concurrent
 * writes never shift a page. Each page is loaded per thread in one read transaction (under the
 * thread's shared lock); a checkpoint deleted between the page query and its load is skipped.
 */
export async function* listCheckpoints(
  ctx: ListContext,
  config: RunnableConfig,
  options: CheckpointListOptions,
): AsyncGenerator<CheckpointTuple> {
  const address = readAddress(config);
  const scope: Scope = {
    threadId: address.threadId,
    // Unlike reads of one checkpoint, a list without a namespace spans all of them.
    ns: config.configurable?.checkpoint_ns === undefined ? undefined : address.ns,
    checkpointId: address.checkpointId,
    before: options.before === undefined ? undefined : readAddress(options.before).checkpointId,
  };
  let remaining = options.limit;
  if (remaining !== undefined && remaining <= 0) return;
  let cursor: PageKey | undefined;
  for (;;) {
    const page = await ctx.wrap("list checkpoints", () =>
      selectPage(ctx.executor(), scope, cursor),
    );
    const wanted: PageKey[] = [];
    for (const row of page) {
      cursor = row;
      const metadata: unknown =
        options.filter === undefined
          ? undefined
          : await ctx.serde.loadsTyped(row.metadata_type, row.metadata);
      if (!matchesFilter(metadata, options.filter)) continue;
      wanted.push(row);
      if (remaining !== undefined && wanted.length >= remaining) break;
    }
    const tuples = await loadKeys(ctx, wanted);
    for (const key of wanted) {
      const tuple = tuples.get(keyOf(key));
      if (tuple === undefined) continue;
      yield tuple;
      if (remaining !== undefined) {
        remaining -= 1;
        if (remaining <= 0) return;
      }
    }
    // A short page is the end, unless the limit stopped the scan early and some of the wanted
    // rows vanished meanwhile; then the scan continues after the last row it examined.
    if (page.length === 0) return;
    if (page.length < PAGE_ROWS && cursor === page[page.length - 1]) return;
  }
}

function selectPage(db: SqlExecutor, scope: Scope, cursor: PageKey | undefined) {
  return db
    .selectFrom("checkpoints")
    .select(["thread_id", "checkpoint_ns", "checkpoint_id", "metadata_type", "metadata"])
    .$if(scope.threadId !== undefined, (qb) => qb.where("thread_id", "=", scope.threadId ?? ""))
    .$if(scope.ns !== undefined, (qb) => qb.where("checkpoint_ns", "=", scope.ns ?? ""))
    .$if(scope.checkpointId !== undefined, (qb) =>
      qb.where("checkpoint_id", "=", scope.checkpointId ?? ""),
    )
    .$if(scope.before !== undefined, (qb) => qb.where("checkpoint_id", "<", scope.before ?? ""))
    .$if(cursor !== undefined, (qb) =>
      qb.where((eb) => {
        const at = cursor ?? { checkpoint_id: "", thread_id: "", checkpoint_ns: "" };
        return eb.or([
          eb("checkpoint_id", "<", at.checkpoint_id),
          eb.and([
            eb("checkpoint_id", "=", at.checkpoint_id),
            eb.or([
              eb("thread_id", ">", at.thread_id),
              eb.and([
                eb("thread_id", "=", at.thread_id),
                eb("checkpoint_ns", ">", at.checkpoint_ns),
              ]),
            ]),
          ]),
        ]);
      }),
    )
    .orderBy("checkpoint_id", "desc")
    .orderBy("thread_id", "asc")
    .orderBy("checkpoint_ns", "asc")
    .limit(PAGE_ROWS)
    .execute();
}

/** Loads and decodes the given checkpoints, one read transaction per thread. */
async function loadKeys(
  ctx: ListContext,
  keys: readonly PageKey[],
): Promise<Map<string, CheckpointTuple>> {
  const byThread = new Map<string, PageKey[]>();
  for (const key of keys)
    byThread.set(key.thread_id, [...(byThread.get(key.thread_id) ?? []), key]);
  const tuples = new Map<string, CheckpointTuple>();
  for (const [threadId, threadKeys] of byThread) {
    const loaded = await ctx.read(threadId, async (trx) => {
      const rows: CheckpointRow[] = [];
      for (const ns of new Set(threadKeys.map((key) => key.checkpoint_ns))) {
        const ids = threadKeys
          .filter((key) => key.checkpoint_ns === ns)
          .map((key) => key.checkpoint_id);
        for (const part of chunked(ids, LOOKUP_CHUNK)) {
          rows.push(
            ...(await trx
              .selectFrom("checkpoints")
              .selectAll()
              .where("thread_id", "=", threadId)
              .where("checkpoint_ns", "=", ns)
              .where("checkpoint_id", "in", part)
              .execute()),
          );
        }
      }
      return ctx.load(trx, threadId, rows);
    });
    for (const item of loaded) tuples.set(keyOf(item.row), await ctx.decode(item));
  }
  return tuples;
}
