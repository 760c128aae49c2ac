/**
 * LangGraph's own saver conformance suite against the checkpointer an execution thread uses: a
 * PortCheckpointSaver reaching, over a real MessageChannel, the SQL saver on SQLite served by
 * serveRunSavers. Each checkpointer gets a fresh in-memory database and channel.
 */
import { MessageChannel } from "node:worker_threads";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { validate } from "@langchain/langgraph-checkpoint-validation";
import { runSaversOverPort } from "../../src/stores/port/run-savers-over-port.js";
import { serveRunSavers } from "../../src/stores/port/serve-run-savers.js";
import { SqlCheckpointSaver } from "../../src/stores/sql/checkpoint/sql-checkpoint-saver.js";
import { openSqlDatabase } from "../../src/stores/sql/database.js";
import { installVitestGlobals } from "./validation-globals.js";

installVitestGlobals();

const teardowns = new WeakMap<BaseCheckpointSaver, () => Promise<void>>();

validate<BaseCheckpointSaver>({
  checkpointerName: "fawn port checkpointer over sql (sqlite)",
  async createCheckpointer() {
    const database = await openSqlDatabase("sqlite::memory:");
    const { port1, port2 } = new MessageChannel();
    const served = serveRunSavers(port1, { checkpointer: new SqlCheckpointSaver(database) });
    const savers = runSaversOverPort(port2);
    teardowns.set(savers.checkpointer, async () => {
      savers.close();
      served.close();
      await database.close();
    });
    return savers.checkpointer;
  },
  async destroyCheckpointer(saver) {
    await teardowns.get(saver)?.();
  },
});
