import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Annotation, type LangGraphRunnableConfig, StateGraph } from "@langchain/langgraph";
import type { BaseStore } from "@langchain/langgraph-checkpoint";
import { Client } from "@langchain/langgraph-sdk";
import { createFawn, type Fawn } from "../../../src/app/create-fawn.js";
import { createFawnGateway } from "../../../src/app/fawn-gateway.js";
import type { Clock } from "../../../src/core/clock.js";
import { parseConfig } from "../../../src/core/config/load-config.js";
import { createLogger } from "../../../src/core/logger.js";
import { type GatewayServer, startGatewayServer } from "../../../src/gateway/server.js";
import type { AgentFactory } from "../../../src/ports/agent.js";

/** The namespace and key the test graph writes its note under. */
export const NOTE_NAMESPACE = ["notes", "runs"];
export const NOTE_KEY = "last-run";

export interface StoreGateway {
  apiUrl: string;
  fawn: Fawn;
  /** The `store` each run's factory was handed, in run order. */
  storesSeen: Array<BaseStore | undefined>;
  client(headers?: Record<string, string>): Client;
  close(): Promise<void>;
}

const State = Annotation.Root({
  note: Annotation<string>(),
});

/**
 * A graph that writes `{note, thread_id}` to the store it was compiled with, then reads it back
 * into its state: what a LangGraph graph using `config.store` does.
 */
function noteGraph(args: Parameters<AgentFactory>[0]) {
  return new StateGraph(State)
    .addNode("write", async (state, config: LangGraphRunnableConfig) => {
      const store = config.store;
      if (!store) throw new Error("the graph was given no store");
      const threadId = config.configurable?.thread_id;
      await store.put(NOTE_NAMESPACE, NOTE_KEY, { note: state.note, thread_id: threadId });
      const read = await store.get(NOTE_NAMESPACE, NOTE_KEY);
      return { note: `stored:${String(read?.value.note)}` };
    })
    .addEdge("__start__", "write")
    .compile({
      ...(args.checkpointer ? { checkpointer: args.checkpointer } : {}),
      ...(args.store ? { store: args.store } : {}),
    });
}

/** A served gateway (SQLite, or `database`) whose runs execute the note graph. */
export async function startStoreGateway(
  options: { config?: Record<string, unknown>; clock?: Clock; database?: string } = {},
): Promise<StoreGateway> {
  const home = await mkdtemp(join(tmpdir(), "fawn-store-"));
  const { config } = parseConfig(
    { database: { url: options.database ?? `sqlite:${join(home, "fawn.db")}` }, ...options.config },
    { env: { FAWN_HOME: home }, cwd: home },
  );
  const logger = createLogger({ level: process.env.FAWN_TEST_LOG_LEVEL ?? "silent" });
  const storesSeen: Array<BaseStore | undefined> = [];
  const fawn = await createFawn({
    config,
    logger,
    ...(options.clock ? { clock: options.clock } : {}),
    agentFactory: (args) => {
      storesSeen.push(args.store);
      const graph = noteGraph(args);
      return {
        stream: (input, streamOptions) => graph.stream(input as never, streamOptions as never),
      };
    },
  });
  const app = createFawnGateway(fawn, { logger, webRoot: false });
  const server: GatewayServer = await startGatewayServer(app, { port: 0, host: "127.0.0.1" });
  const apiUrl = `${server.url}/api`;
  return {
    apiUrl,
    fawn,
    storesSeen,
    client: (headers) =>
      new Client({
        apiUrl,
        apiKey: null,
        callerOptions: { maxRetries: 0 },
        ...(headers ? { defaultHeaders: headers } : {}),
      }),
    async close() {
      await server.close();
      await fawn.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}
