/**
 * Uploads end to end through the served gateway: a file uploaded over HTTP is what the next run
 * sees — the uploads middleware lists it in a `<current_uploads>` block and `uploaded_files`, and
 * the scripted model's `read_file` of its virtual path reads the uploaded bytes in the sandbox.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServedGateway, startServedGateway } from "./helpers/served-gateway.js";

const CSV = "city,visits\nLisbon,3\nKyoto,5\n";

const SCRIPT = [
  {
    match: "attached",
    turns: [
      {
        tool_calls: [
          {
            name: "read_file",
            args: { description: "look at the upload", path: "/mnt/user-data/uploads/visits.csv" },
          },
        ],
      },
      { content: "Kyoto has the most visits." },
    ],
  },
];

interface ThreadValues {
  uploaded_files: Array<{ filename: string; size: number; path: string }>;
  messages: Array<{ type: string; name?: string; content: unknown }>;
}

describe("an uploaded file reaches the next run", () => {
  let server: ServedGateway;

  beforeAll(async () => {
    server = await startServedGateway({
      config: (home) => ({
        models: [
          { name: "reader", use: "scripted", model: "reader", script: join(home, "reader.json") },
        ],
      }),
    });
    await writeFile(join(server.home, "reader.json"), JSON.stringify(SCRIPT));
  });

  afterAll(async () => {
    await server?.close();
  });

  it("the uploads middleware announces it and read_file reads its bytes", async () => {
    const client = server.client();
    const thread = await client.threads.create();
    const form = new FormData();
    form.append("files", new Blob([CSV]), "visits.csv");
    const uploaded = await fetch(`${server.apiUrl}/threads/${thread.thread_id}/uploads`, {
      method: "POST",
      body: form,
    });
    expect(uploaded.status).toBe(200);
    const { files } = (await uploaded.json()) as { files: Array<{ filename: string }> };

    const run = await client.runs.create(thread.thread_id, "lead_agent", {
      input: {
        messages: [
          {
            type: "human",
            content: "What is in the file I attached?",
            additional_kwargs: { files: files.map((file) => ({ ...file, status: "uploaded" })) },
          },
        ],
      },
      config: { configurable: { model_name: "reader" } },
    });
    await client.runs.join(thread.thread_id, run.run_id);
    expect((await client.runs.get(thread.thread_id, run.run_id)).status).toBe("success");

    const state = await client.threads.getState<ThreadValues>(thread.thread_id);
    expect(state.values.uploaded_files).toMatchObject([
      { filename: "visits.csv", size: CSV.length, path: "/mnt/user-data/uploads/visits.csv" },
    ]);
    const human = state.values.messages.find((message) => message.type === "human");
    expect(String(human?.content)).toMatch(
      /^<current_uploads>\n[\s\S]*- visits\.csv \(1 KB\): \/mnt\/user-data\/uploads\/visits\.csv/,
    );
    const read = state.values.messages.find(
      (message) => message.type === "tool" && message.name === "read_file",
    );
    expect(read?.content).toBe(CSV);
  });
});
