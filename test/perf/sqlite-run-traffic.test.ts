/**
 * What one scripted one-turn run costs the SQLite connection, end to end through the gateway as
 * `fawn serve` runs it: statements, transactions and messages to the SQLite worker thread. These
 * counts do not move with the machine's load (unlike time, which is never asserted), so they pin
 * the batching work: a regression that adds worker round trips per run fails here.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLeadAgent } from "../../src/agent/lead-agent/create-lead-agent.js";
import { toStreamingAgent } from "../../src/agent/lead-agent/streaming-agent.js";
import { parseScript } from "../../src/agent/scripted/script-schema.js";
import { ScriptedChatModel } from "../../src/agent/scripted/scripted-chat-model.js";
import { createFawn, type Fawn } from "../../src/app/create-fawn.js";
import { createFawnGateway } from "../../src/app/fawn-gateway.js";
import { parseConfig } from "../../src/core/config/load-config.js";
import { createLogger } from "../../src/core/logger.js";
import { type GatewayServer, startGatewayServer } from "../../src/gateway/server.js";
import type { SqlTraffic } from "../../src/stores/sql/sql-traffic.js";
import { trafficSince } from "../../src/stores/sql/sql-traffic.js";
import { openSqlStores, type SqlStores } from "../../src/stores/sql/stores.js";

/**
 * Upper bounds for one run; the measured figures are printed so a change can be compared. They
 * count the client's requests too: the SDK reads the run's row once its stream closes (streams
 * end by closing, as the platform's do), one round trip of the 21.
 */
const MAX_ROUND_TRIPS_PER_RUN = 21;
const MAX_TRANSACTIONS_PER_RUN = 12;

const script = parseScript([{ turns: [{ content: "Hello from the traffic test." }] }], "traffic");

let home = "";
let stores: SqlStores;
let fawn: Fawn;
let server: GatewayServer;
let client: Client;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "fawn-traffic-"));
  const { config } = parseConfig(
    {
      database: { url: `sqlite:${join(home, "fawn.db")}` },
      // No lease renewal or recovery scan lands inside the measured run.
      runtime: { lease_seconds: 600, recovery_interval_seconds: 600 },
    },
    { env: { FAWN_HOME: home }, cwd: home },
  );
  stores = await openSqlStores(config.database.url, { countTraffic: true });
  const logger = createLogger({ level: "silent" });
  fawn = await createFawn({
    config,
    logger,
    stores,
    buildAgent: ({ checkpointer }) => {
      const agent = toStreamingAgent(
        createLeadAgent({
          model: new ScriptedChatModel({ script, modelName: "traffic" }),
          systemPrompt: "You are a test agent.",
          checkpointer,
        }),
      );
      return () => agent;
    },
    completionHooks: true,
  });
  server = await startGatewayServer(createFawnGateway(fawn, { logger }), {
    port: 0,
    host: "127.0.0.1",
  });
  client = new Client({ apiUrl: `${server.url}/api`, apiKey: null });
});

afterAll(async () => {
  await server?.close();
  await fawn?.close();
  await rm(home, { recursive: true, force: true });
});

function traffic(): SqlTraffic {
  const counted = stores.database.traffic();
  if (counted === null) throw new Error("traffic counting is off");
  return { ...counted };
}

/**
 * One run as the bench's clients make it (new thread, `if_not_exists: create`), until its worker
 * task and the follow-up queue check are done: the barrier query queues behind them on the one
 * connection, and is itself taken off the count.
 */
async function oneRun(): Promise<SqlTraffic> {
  const before = traffic();
  const threadId = crypto.randomUUID();
  let runId = "";
  for await (const part of client.runs.stream(threadId, "lead_agent", {
    input: { messages: [{ role: "user", content: "hi" }] },
    streamMode: ["values", "messages-tuple"],
    ifNotExists: "create",
  })) {
    if (part.event === "metadata") runId = (part.data as { run_id: string }).run_id;
  }
  await fawn.manager.getLocal(runId)?.task?.settled();
  await new Promise((resolve) => setImmediate(resolve));
  const beforeBarrier = traffic();
  await sql`select 1`.execute(stores.database.db);
  const barrier = trafficSince(beforeBarrier, traffic());
  const spent = trafficSince(before, traffic());
  return {
    statements: spent.statements - barrier.statements,
    transactions: spent.transactions - barrier.transactions,
    messages: spent.messages - barrier.messages,
    roundTrips: spent.roundTrips - barrier.roundTrips,
  };
}

describe("SQLite traffic of one run", () => {
  it("a one-turn run through the gateway stays within its worker round trips", async () => {
    await oneRun(); // Warm-up: first-use reads and prepared statements.
    const spent = await oneRun();
    console.log(`one-turn run on SQLite: ${JSON.stringify(spent)}`);
    expect(spent.roundTrips).toBeLessThanOrEqual(MAX_ROUND_TRIPS_PER_RUN);
    expect(spent.transactions).toBeLessThanOrEqual(MAX_TRANSACTIONS_PER_RUN);
    expect(spent.roundTrips).toBeLessThanOrEqual(spent.messages);
  });
});
