/**
 * LangGraph's own saver conformance suite against SqlCheckpointSaver on SQLite. Each checkpointer
 * the suite asks for gets a fresh in-memory database (the suite requires isolated instances).
 */
import { validate } from "@langchain/langgraph-checkpoint-validation";
import { SqlCheckpointSaver } from "../../src/stores/sql/checkpoint/sql-checkpoint-saver.js";
import { openSqlDatabase, type SqlDatabase } from "../../src/stores/sql/database.js";
import { installVitestGlobals } from "./validation-globals.js";

installVitestGlobals();

const databases = new WeakMap<SqlCheckpointSaver, SqlDatabase>();

validate<SqlCheckpointSaver>({
  checkpointerName: "fawn-sql-checkpoint-saver (sqlite)",
  async createCheckpointer() {
    const database = await openSqlDatabase("sqlite::memory:");
    const saver = new SqlCheckpointSaver(database);
    databases.set(saver, database);
    return saver;
  },
  async destroyCheckpointer(saver) {
    await databases.get(saver)?.close();
  },
});
