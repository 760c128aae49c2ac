/**
 * LangGraph's own saver conformance suite against SqlCheckpointSaver on PostgreSQL. One database
 * per test file (test/helpers/postgres.ts: unreachable fails in CI, skips loudly elsewhere); each
 * checkpointer the suite asks for starts from empty checkpoint tables, as the suite requires.
 */
import { validate } from "@langchain/langgraph-checkpoint-validation";
import { afterAll, describe, it } from "vitest";
import { SqlCheckpointSaver } from "../../src/stores/sql/checkpoint/sql-checkpoint-saver.js";
import { openSqlDatabase, type SqlDatabase } from "../../src/stores/sql/database.js";
import { createPostgresTestDatabase } from "../helpers/postgres.js";
import { clearCheckpointTables } from "./checkpoint-tables.js";
import { installVitestGlobals } from "./validation-globals.js";

const postgres = await createPostgresTestDatabase("checkpoint_validation");

if (postgres === null) {
  describe("fawn-sql-checkpoint-saver (postgres)", () => {
    it.skip("PostgreSQL is unreachable; see the warning above", () => undefined);
  });
} else {
  const database: SqlDatabase = await openSqlDatabase(postgres.url);
  afterAll(async () => {
    await database.close();
    await postgres.drop();
  });
  installVitestGlobals();
  validate<SqlCheckpointSaver>({
    checkpointerName: "fawn-sql-checkpoint-saver (postgres)",
    async createCheckpointer() {
      await clearCheckpointTables(database);
      return new SqlCheckpointSaver(database);
    },
  });
}
