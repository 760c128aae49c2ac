import { type Expression, type Selectable, type SqlBool, sql } from "kysely";
import { ValidationError } from "../../core/errors.js";
import {
  ASSISTANT_SORT_COLUMNS,
  type AssistantContent,
  type AssistantFilter,
  type AssistantPatch,
  type AssistantRow,
  type AssistantScope,
  type AssistantSearch,
  type AssistantStore,
  type AssistantVersionQuery,
  type AssistantVersionRow,
  jsonContains,
  matchesAssistantFilter,
  type NewAssistant,
  patchedContent,
  type SetLatestResult,
} from "../../ports/assistant-store.js";
import { fromDbObject, fromDbTimestamp, toDbJson, toDbTimestamp, toNumber } from "./codec.js";
import type { SqlExecutor } from "./database.js";
import type { AssistantsTable, AssistantVersionsTable } from "./schema.js";
import { SqlStore } from "./sql-store.js";

const DEFAULT_LIMIT = 10;

/** Ownerless rows, or the caller's own. */
function visibleTo(userId: string | undefined): Expression<SqlBool> {
  return sql<SqlBool>`(user_id is null or user_id = ${userId ?? null})`;
}

function contentFromDb(
  record: Selectable<AssistantsTable> | Selectable<AssistantVersionsTable>,
): AssistantContent {
  return {
    graph_id: record.graph_id,
    name: record.name,
    description: record.description,
    config: fromDbObject(record.config_json),
    context: fromDbObject(record.context_json),
    metadata: fromDbObject(record.metadata_json),
  };
}

function assistantFromDb(record: Selectable<AssistantsTable>): AssistantRow {
  return {
    ...contentFromDb(record),
    assistant_id: record.assistant_id,
    version: toNumber(record.version),
    user_id: record.user_id,
    created_at: fromDbTimestamp(record.created_at),
    updated_at: fromDbTimestamp(record.updated_at),
  };
}

function versionFromDb(record: Selectable<AssistantVersionsTable>): AssistantVersionRow {
  return {
    ...contentFromDb(record),
    assistant_id: record.assistant_id,
    version: toNumber(record.version),
    created_at: fromDbTimestamp(record.created_at),
  };
}

function contentToDb(content: AssistantContent) {
  return {
    graph_id: content.graph_id,
    name: content.name,
    description: content.description,
    config_json: toDbJson(content.config),
    context_json: toDbJson(content.context),
    metadata_json: toDbJson(content.metadata),
  };
}

/** Assistants and their versions (`assistants`, `assistant_versions`) over Kysely. */
export class SqlAssistantStore extends SqlStore implements AssistantStore {
  create(assistant: NewAssistant): Promise<{ assistant: AssistantRow; created: boolean }> {
    return this.wrap("create an assistant", () =>
      this.database.transaction(async (trx) => {
        const createdAt = toDbTimestamp(assistant.created_at, "created_at");
        const content = contentToDb({
          graph_id: assistant.graph_id,
          name: assistant.name,
          description: assistant.description ?? null,
          config: assistant.config ?? {},
          context: assistant.context ?? {},
          metadata: assistant.metadata ?? {},
        });
        const inserted = await trx
          .insertInto("assistants")
          .values({
            ...content,
            assistant_id: assistant.assistant_id,
            version: 1,
            user_id: assistant.user_id ?? null,
            created_at: createdAt,
            updated_at: createdAt,
          })
          .onConflict((oc) => oc.column("assistant_id").doNothing())
          .returningAll()
          .executeTakeFirst();
        if (inserted === undefined) {
          const existing = await this.read(trx, assistant.assistant_id, {});
          if (existing === null) {
            throw new Error(
              `Assistant ${assistant.assistant_id} vanished while being created; retry.`,
            );
          }
          return { assistant: existing, created: false };
        }
        await trx
          .insertInto("assistant_versions")
          .values({
            ...content,
            assistant_id: assistant.assistant_id,
            version: 1,
            created_at: createdAt,
          })
          .execute();
        return { assistant: assistantFromDb(inserted), created: true };
      }),
    );
  }

  get(assistantId: string, scope: AssistantScope = {}): Promise<AssistantRow | null> {
    return this.wrap("read an assistant", () => this.read(this.db, assistantId, scope));
  }

  update(
    assistantId: string,
    patch: AssistantPatch,
    now: string,
    scope: AssistantScope = {},
  ): Promise<AssistantRow | null> {
    return this.wrap("update an assistant", () =>
      // Reading the newest version and writing the next must not interleave with another patch.
      this.database.transaction(async (trx) => {
        const current = await this.read(trx, assistantId, scope, { lock: true });
        if (current === null) return null;
        const newest = await trx
          .selectFrom("assistant_versions")
          .select((eb) => eb.fn.max("version").as("newest"))
          .where("assistant_id", "=", assistantId)
          .executeTakeFirst();
        const version = toNumber(newest?.newest ?? current.version) + 1;
        const at = toDbTimestamp(now, "now");
        const content = contentToDb(patchedContent(current, patch));
        await trx
          .insertInto("assistant_versions")
          .values({ ...content, assistant_id: assistantId, version, created_at: at })
          .execute();
        const updated = await trx
          .updateTable("assistants")
          .set({ ...content, version, updated_at: at })
          .where("assistant_id", "=", assistantId)
          .returningAll()
          .executeTakeFirst();
        return updated === undefined ? null : assistantFromDb(updated);
      }),
    );
  }

  delete(assistantId: string, scope: AssistantScope = {}): Promise<boolean> {
    return this.wrap("delete an assistant", () =>
      this.database.transaction(async (trx) => {
        const result = await trx
          .deleteFrom("assistants")
          .where("assistant_id", "=", assistantId)
          .$if(scope.visibleTo !== undefined, (qb) => qb.where(visibleTo(scope.visibleTo)))
          .executeTakeFirst();
        if (Number(result.numDeletedRows) === 0) return false;
        await trx
          .deleteFrom("assistant_versions")
          .where("assistant_id", "=", assistantId)
          .execute();
        return true;
      }),
    );
  }

  search(query: AssistantSearch): Promise<AssistantRow[]> {
    return this.wrap("search assistants", async () => {
      const offset = Math.max(0, query.offset ?? 0);
      const limit = Math.max(0, query.limit ?? DEFAULT_LIMIT);
      if (limit === 0) return [];
      const ordered = this.ordered(query);
      if (this.exact(query)) {
        return (await ordered.limit(limit).offset(offset).execute()).map(assistantFromDb);
      }
      // SQLite leaves name and metadata to JS, so offset and limit count matching rows only.
      const rows = (await ordered.execute()).map(assistantFromDb);
      return rows.filter((row) => matchesAssistantFilter(row, query)).slice(offset, offset + limit);
    });
  }

  count(query: AssistantFilter): Promise<number> {
    return this.wrap("count assistants", async () => {
      if (this.exact(query)) {
        const result = await this.filtered(query)
          .select((eb) => eb.fn.countAll<number | string>().as("count"))
          .executeTakeFirst();
        return toNumber(result?.count);
      }
      const rows = (await this.filtered(query).selectAll().execute()).map(assistantFromDb);
      return rows.filter((row) => matchesAssistantFilter(row, query)).length;
    });
  }

  versions(assistantId: string, query: AssistantVersionQuery = {}): Promise<AssistantVersionRow[]> {
    return this.wrap("list assistant versions", async () => {
      if ((await this.read(this.db, assistantId, query)) === null) return [];
      const offset = Math.max(0, query.offset ?? 0);
      const limit = Math.max(0, query.limit ?? DEFAULT_LIMIT);
      const records = await this.db
        .selectFrom("assistant_versions")
        .selectAll()
        .where("assistant_id", "=", assistantId)
        .orderBy("version", "desc")
        .execute();
      return records
        .map(versionFromDb)
        .filter((v) => query.metadata === undefined || jsonContains(v.metadata, query.metadata))
        .slice(offset, offset + limit);
    });
  }

  setLatest(
    assistantId: string,
    version: number,
    now: string,
    scope: AssistantScope = {},
  ): Promise<SetLatestResult> {
    return this.wrap("set an assistant's version", () =>
      this.database.transaction(async (trx): Promise<SetLatestResult> => {
        const current = await this.read(trx, assistantId, scope, { lock: true });
        if (current === null) return { status: "assistant_not_found" };
        const found = await trx
          .selectFrom("assistant_versions")
          .selectAll()
          .where("assistant_id", "=", assistantId)
          .where("version", "=", version)
          .executeTakeFirst();
        if (found === undefined) return { status: "version_not_found" };
        const updated = await trx
          .updateTable("assistants")
          .set({
            ...contentToDb(contentFromDb(found)),
            version,
            updated_at: toDbTimestamp(now, "now"),
          })
          .where("assistant_id", "=", assistantId)
          .returningAll()
          .executeTakeFirstOrThrow();
        return { status: "updated", assistant: assistantFromDb(updated) };
      }),
    );
  }

  private async read(
    db: SqlExecutor,
    assistantId: string,
    scope: AssistantScope,
    options: { lock?: boolean } = {},
  ): Promise<AssistantRow | null> {
    const record = await db
      .selectFrom("assistants")
      .selectAll()
      .where("assistant_id", "=", assistantId)
      .$if(scope.visibleTo !== undefined, (qb) => qb.where(visibleTo(scope.visibleTo)))
      .$if(options.lock === true && this.database.dialect === "postgres", (qb) => qb.forUpdate())
      .executeTakeFirst();
    return record === undefined ? null : assistantFromDb(record);
  }

  /** Whether SQL alone decides the filter (PostgreSQL always; SQLite without name or metadata). */
  private exact(query: AssistantFilter): boolean {
    return (
      this.database.dialect === "postgres" ||
      (query.name === undefined && query.metadata === undefined)
    );
  }

  private filtered(query: AssistantFilter) {
    const postgres = this.database.dialect === "postgres";
    return this.db
      .selectFrom("assistants")
      .$if(query.visibleTo !== undefined, (qb) => qb.where(visibleTo(query.visibleTo)))
      .$if(query.graphId !== undefined, (qb) => qb.where("graph_id", "=", query.graphId ?? ""))
      .$if(postgres && query.name !== undefined, (qb) =>
        qb.where(sql<SqlBool>`position(lower(${query.name ?? ""}) in lower(name)) > 0`),
      )
      .$if(postgres && query.metadata !== undefined, (qb) =>
        qb.where(sql<SqlBool>`metadata_json @> ${JSON.stringify(query.metadata ?? {})}::jsonb`),
      );
  }

  /** Sorted like `compareAssistants`: text bytewise (PostgreSQL's collation would not be). */
  private ordered(query: AssistantSearch) {
    const direction = query.sortOrder === "asc" ? "asc" : "desc";
    const sortBy = query.sortBy ?? "created_at";
    if (!ASSISTANT_SORT_COLUMNS.includes(sortBy)) {
      throw new ValidationError(
        `Cannot sort assistants by "${String(sortBy)}"; use ${ASSISTANT_SORT_COLUMNS.join(", ")}.`,
      );
    }
    const postgres = this.database.dialect === "postgres";
    const bytewise = (column: string) =>
      postgres ? sql`${sql.ref(column)} collate "C"` : sql.ref(column);
    const base = this.filtered(query).selectAll();
    const timestamp = sortBy === "created_at" || sortBy === "updated_at";
    const first = timestamp
      ? base.orderBy(sortBy, direction)
      : base.orderBy(bytewise(sortBy), direction);
    return sortBy === "assistant_id" ? first : first.orderBy(bytewise("assistant_id"), direction);
  }
}
