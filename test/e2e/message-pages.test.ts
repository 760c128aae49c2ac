/**
 * A thread's message pages are its conversation as the user had it: the served lead agent (a
 * scripted model, the title middleware on) answers three runs, driven through the unmodified
 * LangGraph SDK. `/threads/{id}/messages/page`, fetched with plain HTTP the way a client rebuilds
 * history after a reload, lists each run's own human message (with the id the thread state gives
 * it) and its answer, in order, and none of the title call's rows.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServedGateway, startServedGateway } from "./helpers/served-gateway.js";

const TURNS = [
  { ask: "Tell me about alpine lakes", answer: "Alpine lakes sit high in the mountains." },
  { ask: "And which is the deepest one?", answer: "Lake Geneva is among the deepest." },
  { ask: "Thanks, summarise in one line", answer: "High, cold and often very deep." },
];

const SCRIPT = {
  rules: [
    { match: "alpine lakes", turns: [{ content: TURNS[0]?.answer }] },
    { match: "deepest", turns: [{ content: TURNS[1]?.answer }] },
    { match: "summarise", turns: [{ content: TURNS[2]?.answer }] },
  ],
  middleware_replies: { "middleware:title": "Alpine lake facts" },
};

interface PageRow {
  run_id: string;
  seq: number;
  event_type: string;
  content: { type?: string; id?: string; content?: unknown };
  metadata: { caller?: string };
}

interface Page {
  data: PageRow[];
  has_more: boolean;
  next_before_seq: number | null;
}

interface StateMessage {
  type: string;
  id?: string;
  content: unknown;
}

describe("thread message pages after three runs (served lead agent, scripted model)", () => {
  let server: ServedGateway;

  beforeAll(async () => {
    server = await startServedGateway({
      config: (home) => ({
        models: [
          { name: "scripted", use: "scripted", model: "scripted", script: join(home, "s.json") },
        ],
        title: { enabled: true },
      }),
    });
    await writeFile(join(server.home, "s.json"), JSON.stringify(SCRIPT));
  });

  afterAll(async () => {
    await server?.close();
  });

  async function page(threadId: string, query = ""): Promise<Page> {
    const response = await fetch(`${server.apiUrl}/threads/${threadId}/messages/page${query}`);
    expect(response.status).toBe(200);
    return (await response.json()) as Page;
  }

  it("lists each run's own human message and its answer, and no title rows", async () => {
    const client = server.client();
    const thread = await client.threads.create();
    const runIds: string[] = [];
    for (const turn of TURNS) {
      const run = await client.runs.create(thread.thread_id, "lead_agent", {
        input: { messages: [{ role: "user", content: turn.ask }] },
      });
      await client.runs.join(thread.thread_id, run.run_id);
      expect((await client.runs.get(thread.thread_id, run.run_id)).status).toBe("success");
      runIds.push(run.run_id);
    }
    const state = await client.threads.getState<{ messages: StateMessage[]; title: string }>(
      thread.thread_id,
    );
    // The title middleware did run (its model call is what must stay off the pages).
    expect(state.values.title).toBe("Alpine lake facts");
    const stateHumans = state.values.messages.filter((m) => m.type === "human");
    expect(stateHumans.map((m) => m.content)).toEqual(TURNS.map((t) => t.ask));

    const { data, has_more } = await page(thread.thread_id);
    expect(has_more).toBe(false);
    expect(data.map((row) => [row.run_id, row.content.type, row.content.content])).toEqual(
      TURNS.flatMap((turn, index) => [
        [runIds[index], "human", turn.ask],
        [runIds[index], "ai", turn.answer],
      ]),
    );
    // Each human row carries the id the thread state gives that message: distinct, not reused.
    const humanIds = data.filter((row) => row.content.type === "human").map((r) => r.content.id);
    expect(humanIds).toEqual(stateHumans.map((m) => m.id));
    expect(new Set(humanIds).size).toBe(3);
    expect(data.every((row) => row.metadata.caller === "lead_agent")).toBe(true);

    // Paging backwards one row at a time walks the same conversation.
    const walked: PageRow[] = [];
    let before = "";
    for (;;) {
      const next = await page(thread.thread_id, `?limit=1${before}`);
      walked.unshift(...next.data);
      if (!next.has_more) break;
      before = `&before_seq=${next.next_before_seq}`;
    }
    expect(walked.map((row) => row.seq)).toEqual(data.map((row) => row.seq));

    // The title call is still journalled, marked with its caller, outside the pages.
    const titleRows = (
      await Promise.all(
        runIds.map(async (runId) => {
          const response = await fetch(
            `${server.apiUrl}/threads/${thread.thread_id}/runs/${runId}/messages`,
          );
          return ((await response.json()) as { data: PageRow[] }).data;
        }),
      )
    )
      .flat()
      .filter((row) => row.metadata.caller === "middleware:title");
    expect(titleRows.length).toBeGreaterThan(0);
  });
});
