/**
 * The delivery check in the server `fawn serve` builds: a run that writes a file to
 * /mnt/user-data/outputs and never presents it ends `error` with the reference's message, and
 * its `run.delivery` event lists the produced path with `satisfied: false`; the same task that
 * presents its file succeeds with `satisfied: true`.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { type ServedGateway, startServedGateway } from "./helpers/served-gateway.js";

const DRAFT = "/mnt/user-data/outputs/draft.md";

function writeDraft() {
  return {
    name: "write_file",
    args: { description: "draft", path: DRAFT, content: "# Draft\n" },
  };
}

const SCRIPT = [
  {
    match: "^forget",
    turns: [{ tool_calls: [writeDraft()] }, { content: "Wrote the draft." }],
  },
  {
    match: "^deliver",
    turns: [
      { tool_calls: [writeDraft()] },
      { tool_calls: [{ name: "present_files", args: { filepaths: [DRAFT] } }] },
      { content: "Here is the draft." },
    ],
  },
];

interface ApiEvent {
  event_type: string;
  content: Record<string, unknown>;
}

let server: ServedGateway;
let client: Client;

beforeAll(async () => {
  server = await startServedGateway({
    config: (home) => ({
      models: [
        { name: "scripted", use: "scripted", model: "s", script: join(home, "delivery.yaml") },
      ],
    }),
  });
  await writeFile(join(server.home, "delivery.yaml"), stringify(SCRIPT));
  client = server.client();
});

afterAll(async () => {
  await server?.close();
});

async function runTask(text: string) {
  const thread = await client.threads.create();
  const run = await client.runs.create(thread.thread_id, "lead_agent", {
    input: { messages: [{ role: "user", content: text }] },
  });
  await client.runs.join(thread.thread_id, run.run_id);
  const finished = await client.runs.get(thread.thread_id, run.run_id);
  const response = await fetch(
    `${server.apiUrl}/threads/${thread.thread_id}/runs/${run.run_id}/events`,
  );
  const events = (await response.json()) as ApiEvent[];
  const row = await server.fawn.stores.runs.get(run.run_id);
  return { status: finished.status, error: row?.error ?? null, events };
}

describe("the delivery check through the gateway", () => {
  it("ends a run that produced an output but never presented it as error", async () => {
    const { status, error, events } = await runTask("forget to present the draft");
    expect(status).toBe("error");
    expect(error).toBe("Artifact delivery incomplete: no produced output artifact was presented");
    const delivery = events.find((event) => event.event_type === "run.delivery");
    expect(delivery?.content).toMatchObject({ produced_paths: [DRAFT], satisfied: false });
    expect(events.filter((event) => event.event_type === "run.terminal")).toHaveLength(1);
  });

  it("lets the same task succeed when it presents the file", async () => {
    const { status, events } = await runTask("deliver the draft");
    expect(status).toBe("success");
    const delivery = events.find((event) => event.event_type === "run.delivery");
    expect(delivery?.content).toMatchObject({
      produced_paths: [DRAFT],
      by_tool: { present_files: [DRAFT] },
      satisfied: true,
    });
  });
});
