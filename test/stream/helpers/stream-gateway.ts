import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { Client } from "@langchain/langgraph-sdk";
import { createFawn, type Fawn } from "../../../src/app/create-fawn.js";
import { createFawnGateway } from "../../../src/app/fawn-gateway.js";
import { parseConfig } from "../../../src/core/config/load-config.js";
import { createLogger } from "../../../src/core/logger.js";
import { type GatewayServer, startGatewayServer } from "../../../src/gateway/server.js";
import type { AgentStreamOptions, StreamingAgent } from "../../../src/ports/agent.js";

/** What a compiled LangGraph.js graph offers that the tests stream through. */
export interface CompiledLike {
  stream(input: never, options: never): Promise<AsyncIterable<unknown>>;
}

/** Builds a run's graph over the run's checkpointer, from the run's config. */
export type GraphBuilder = (
  config: Record<string, unknown>,
  checkpointer: BaseCheckpointSaver,
) => CompiledLike;

export interface StreamGateway {
  apiUrl: string;
  client: Client;
  fawn: Fawn;
  close(): Promise<void>;
}

/**
 * A compiled graph as the runtime's `StreamingAgent`: the worker's options go to `graph.stream`
 * as LangGraph names them (`interruptBefore`/`interruptAfter` included). Like the lead agent, it
 * hands the run's journal to the graph in `configurable.__fawn_evidence`, so a payload that
 * leaked the run's config would carry it.
 */
export function agentOf(graph: CompiledLike): StreamingAgent {
  return {
    stream: (input, options: AgentStreamOptions) => {
      const { journal, ...rest } = options;
      const configurable = { ...rest.configurable, __fawn_evidence: journal };
      return graph.stream(input as never, { ...rest, configurable } as never);
    },
  };
}

/** A served gateway (memory stores) whose runs execute the graphs `build` compiles. */
export async function startStreamGateway(build: GraphBuilder): Promise<StreamGateway> {
  const home = await mkdtemp(join(tmpdir(), "fawn-stream-"));
  const { config } = parseConfig(
    { database: { url: "memory:" } },
    { env: { FAWN_HOME: home }, cwd: home },
  );
  const logger = createLogger({ level: process.env.FAWN_TEST_LOG_LEVEL ?? "silent" });
  const fawn = await createFawn({
    config,
    logger,
    agentFactory: ({ config, checkpointer }) => {
      if (!checkpointer) throw new Error("the stream tests need the runtime's checkpointer");
      return agentOf(build(config, checkpointer));
    },
  });
  const server: GatewayServer = await startGatewayServer(createFawnGateway(fawn, { logger }), {
    port: 0,
    host: "127.0.0.1",
  });
  const apiUrl = `${server.url}/api`;
  return {
    apiUrl,
    client: new Client({ apiUrl, apiKey: null, callerOptions: { maxRetries: 0 } }),
    fawn,
    async close() {
      await server.close();
      await fawn.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}

/** One part the SDK's stream yields (its `id` too, which its types leave out). */
export interface Part {
  event: string;
  data: unknown;
  id?: string;
}

/** Reads an SDK stream to its end. */
export async function collect(stream: AsyncIterable<unknown>): Promise<Part[]> {
  const out: Part[] = [];
  for await (const item of stream) out.push(item as Part);
  return out;
}

/** A run input of one user message. */
export const say = (text: string) => ({ messages: [{ role: "human", content: text }] });

/** A run config naming the test graph it executes (see `graphs.ts`). */
export const graph = (name: string, extra: Record<string, unknown> = {}) => ({
  ...extra,
  configurable: { graph: name },
});
