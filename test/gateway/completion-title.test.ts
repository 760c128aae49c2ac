/**
 * The completion hook copies the state's `title` to the thread row (what thread lists show). A
 * successful run hands it the graph's final values from the journal, so the hook reads no
 * checkpoint; a webhook still reads the head (it posts the head's values).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { Annotation, END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createFawn, type Fawn } from "../../src/app/create-fawn.js";
import { createFawnGateway } from "../../src/app/fawn-gateway.js";
import { parseConfig } from "../../src/core/config/load-config.js";
import { createLogger } from "../../src/core/logger.js";
import { type GatewayServer, startGatewayServer } from "../../src/gateway/server.js";
import type { StreamingAgent } from "../../src/ports/agent.js";

const TitledState = Annotation.Root({
  ...MessagesAnnotation.spec,
  title: Annotation<string | null>({ reducer: (_old, next) => next, default: () => null }),
});

let home = "";
let fawn: Fawn;
let server: GatewayServer;
let client: Client;
let webhookServer: Server;
let webhookUrl = "";
const webhookBodies: unknown[] = [];

function titledGraph(checkpointer: Fawn["checkpointer"]) {
  return new StateGraph(TitledState)
    .addNode("agent", (state: { messages: BaseMessage[] }) => ({
      messages: [new AIMessage(`echo ${state.messages.length}`)],
      title: "Greeting thread",
    }))
    .addEdge(START, "agent")
    .addEdge("agent", END)
    .compile({ checkpointer });
}

async function readBody(request: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of request) text += String(chunk);
  return text;
}

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "fawn-completion-title-"));
  const { config } = parseConfig(
    { database: { url: `sqlite:${join(home, "fawn.db")}` } },
    { env: { FAWN_HOME: home }, cwd: home },
  );
  const logger = createLogger({ level: "silent" });
  fawn = await createFawn({
    config,
    logger,
    buildAgent: ({ checkpointer }) => {
      const graph = titledGraph(checkpointer);
      const agent: StreamingAgent = {
        stream: (input, options) =>
          graph.stream(input as { messages: BaseMessage[] }, {
            configurable: options.configurable,
            callbacks: options.callbacks as never,
            streamMode: "values",
            signal: options.signal,
          }),
      };
      return () => agent;
    },
    completionHooks: true,
  });
  server = await startGatewayServer(createFawnGateway(fawn, { logger }), {
    port: 0,
    host: "127.0.0.1",
  });
  client = new Client({ apiUrl: `${server.url}/api`, apiKey: null });
  webhookServer = createServer((request, response) => {
    void readBody(request).then((text) => {
      webhookBodies.push(JSON.parse(text));
      response.end("ok");
    });
  });
  await new Promise<void>((resolve) => webhookServer.listen(0, "127.0.0.1", resolve));
  webhookUrl = `http://127.0.0.1:${(webhookServer.address() as AddressInfo).port}/hook`;
});

afterAll(async () => {
  await server?.close();
  await fawn?.close();
  await new Promise((resolve) => webhookServer?.close(resolve));
  await rm(home, { recursive: true, force: true });
});

async function runToEnd(threadId: string, webhook?: string): Promise<void> {
  let runId = "";
  // Streamed, not joined: `/join` reads the thread's values itself.
  for await (const part of client.runs.stream(threadId, "lead_agent", {
    input: { messages: [{ role: "user", content: "hi" }] },
    ifNotExists: "create",
    ...(webhook ? { webhook } : {}),
  })) {
    if (part.event === "metadata") runId = (part.data as { run_id: string }).run_id;
  }
  await fawn.manager.getLocal(runId)?.task?.settled();
}

describe("completion hook: title", () => {
  it("copies a successful run's title to the thread without reading the checkpoint back", async () => {
    const threadId = crypto.randomUUID();
    const getTuple = vi.spyOn(fawn.checkpointer, "getTuple");
    await runToEnd(threadId);
    const reads = getTuple.mock.calls.length;
    getTuple.mockRestore();
    const row = await fawn.stores.threads.get(threadId);
    expect(row?.display_name).toBe("Greeting thread");
    // The rollback point and the graph's own start read it; the hook no longer does.
    expect(reads).toBe(2);
  });

  it("still reads the head for a webhook, and posts its values", async () => {
    const threadId = crypto.randomUUID();
    const getTuple = vi.spyOn(fawn.checkpointer, "getTuple");
    await runToEnd(threadId, webhookUrl);
    const reads = getTuple.mock.calls.length;
    getTuple.mockRestore();
    expect(reads).toBe(3);
    await vi.waitFor(() => expect(webhookBodies.length).toBeGreaterThan(0));
    const body = webhookBodies.at(-1) as { thread_id: string; values: { title?: string } };
    expect(body.thread_id).toBe(threadId);
    expect(body.values.title).toBe("Greeting thread");
    expect((await fawn.stores.threads.get(threadId))?.display_name).toBe("Greeting thread");
  });
});
