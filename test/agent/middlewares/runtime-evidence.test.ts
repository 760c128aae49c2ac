/**
 * The middleware chain inside the real runtime: createFawn → RunService → worker → the lead
 * agent factory's graph. The worker hands the run journal to the graph; middleware decisions
 * land in the event store as `middleware:*` events. The scenario is the clarification round trip:
 * the first run ends with the question in the thread, the second run carries the answer on.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type BaseMessage,
  HumanMessage,
  isBaseMessage,
  ToolMessage,
} from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph-checkpoint";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLeadAgentFactory } from "../../../src/agent/lead-agent/lead-agent-factory.js";
import { createFawn, type Fawn } from "../../../src/app/create-fawn.js";
import { parseConfig } from "../../../src/core/config/load-config.js";
import type { RunRecord } from "../../../src/runtime/run-record.js";
import { createMemoryStores } from "../../../src/stores/memory/stores.js";
import { within } from "../../helpers/latch.js";

const SCRIPT = `
- match: "trip"
  turns:
    - content: "One question first."
      tool_calls:
        - name: ask_clarification
          args: {question: "Which month?", clarification_type: missing_info, options: [May, June]}
    - content: "unreachable"
- match: "^may"
  turns:
    - content: "Planned for May."
`;

let home: string;
let fawn: Fawn | undefined;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "fawn-mw-runtime-"));
});

afterEach(async () => {
  await fawn?.close();
  fawn = undefined;
  await rm(home, { recursive: true, force: true });
});

function messagesOf(value: unknown): BaseMessage[] {
  return Array.isArray(value) ? value.filter((item) => isBaseMessage(item)) : [];
}

async function runToEnd(instance: Fawn, threadId: string, text: string): Promise<RunRecord> {
  const record = await instance.runs.submit({
    threadId,
    invocation: { input: { messages: [new HumanMessage(text)] }, stream_mode: ["values"] },
  });
  for await (const item of instance.bridge.subscribe(record.runId, { heartbeatMs: 60_000 })) {
    if (item.kind !== "event") break;
  }
  await within(
    record.task ? record.task.settled().then(() => undefined) : Promise.resolve(),
    15_000,
    "run did not finish",
  );
  return record;
}

describe("middleware evidence through the real runtime", () => {
  it("clarification round trip with middleware events in the run's event log", async () => {
    await writeFile(join(home, "trip.yaml"), SCRIPT);
    const { config } = parseConfig(
      { models: [{ name: "trip", use: "scripted", model: "trip", script: "trip.yaml" }] },
      { env: { FAWN_HOME: home } },
    );
    const checkpointer = new MemorySaver();
    fawn = await createFawn({
      config,
      stores: createMemoryStores(),
      checkpointer,
      agentFactory: createLeadAgentFactory({ config, checkpointer, baseDir: home }),
      runContext: { spawnHousekeeping: () => undefined },
    });

    const first = await runToEnd(fawn, "trip-thread", "Plan a trip to Porto");
    expect((await fawn.stores.runs.get(first.runId))?.status).toBe("success");
    const events = await fawn.stores.events.listEvents("trip-thread", first.runId, {});
    const middleware = events.filter((e) => e.event_type.startsWith("middleware:"));
    expect(middleware.map((e) => e.event_type)).toEqual(
      expect.arrayContaining([
        "middleware:thread_data",
        "middleware:title",
        "middleware:clarification",
      ]),
    );
    expect(
      middleware.find((e) => e.event_type === "middleware:clarification")?.content,
    ).toMatchObject({
      name: "ClarificationMiddleware",
      hook: "wrapToolCall",
      action: "asked",
    });
    const saved = await checkpointer.getTuple({ configurable: { thread_id: "trip-thread" } });
    const messages = messagesOf(saved?.checkpoint.channel_values.messages);
    const last = messages.at(-1);
    expect(last && ToolMessage.isInstance(last) && last.name).toBe("ask_clarification");
    expect(String(last?.content)).toContain("Which month?");
    expect(saved?.checkpoint.channel_values.title).toBe("Plan a trip to Porto");

    const second = await runToEnd(fawn, "trip-thread", "May");
    expect((await fawn.stores.runs.get(second.runId))?.status).toBe("success");
    const after = await checkpointer.getTuple({ configurable: { thread_id: "trip-thread" } });
    const final = messagesOf(after?.checkpoint.channel_values.messages);
    expect(final.at(-1)?.content).toBe("Planned for May.");
  });
});
