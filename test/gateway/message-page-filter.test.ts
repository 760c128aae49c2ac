/**
 * `/threads/{id}/messages/page` shows the conversation only: rows journalled for a middleware's
 * own model call or a sub-agent (marked by `metadata.caller`) are left out, and the page still
 * holds `limit` conversation rows with a cursor that skips past long runs of left-out rows. The
 * plain message list keeps every row.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_USER_ID } from "../../src/core/paths.js";
import type { NewRunEvent } from "../../src/ports/run-event-store.js";
import { type GatewayHarness, startGatewayHarness } from "./helpers/gateway-harness.js";

interface Row {
  seq: number;
  content: { id: string };
  metadata: { caller?: string };
}

interface Page {
  data: Row[];
  has_more: boolean;
  next_before_seq: number | null;
}

let h: GatewayHarness;

beforeAll(async () => {
  h = await startGatewayHarness();
});

afterAll(async () => {
  await h?.close();
});

function row(threadId: string, type: string, id: string, caller?: string): NewRunEvent {
  return {
    thread_id: threadId,
    run_id: "run-1",
    event_type: type,
    category: "message",
    content: { type: type === "llm.human.input" ? "human" : "ai", id, content: id },
    metadata: caller ? { caller } : {},
    user_id: DEFAULT_USER_ID,
  };
}

describe("the thread's message page", () => {
  it("leaves middleware and sub-agent rows out and pages past them", async () => {
    const { thread_id: threadId } = await h.client.threads.create();
    const subagent: NewRunEvent[] = [];
    // More than one store batch of sub-agent rows between two conversation rows.
    for (let index = 0; index < 250; index += 1) {
      const type = index % 2 === 0 ? "llm.ai.response" : "llm.tool.result";
      subagent.push(row(threadId, type, `sub-${index}`, "subagent:general-purpose"));
    }
    await h.fawn.stores.events.putBatch([
      row(threadId, "llm.human.input", "h1", "lead_agent"),
      row(threadId, "llm.ai.response", "a1", "lead_agent"),
      ...subagent,
      // A tool result journalled without a caller (before callers were recorded) is shown.
      row(threadId, "llm.tool.result", "task-result"),
      row(threadId, "llm.ai.response", "a1-final", "lead_agent"),
      row(threadId, "llm.ai.response", "title", "middleware:title"),
      row(threadId, "llm.ai.response", "summary", "middleware:summarize"),
      row(threadId, "llm.human.input", "h2", "lead_agent"),
      row(threadId, "llm.ai.response", "a2", "lead_agent"),
    ]);
    const page = async (query: string): Promise<Page> =>
      (await (await fetch(`${h.apiUrl}/threads/${threadId}/messages/page${query}`)).json()) as Page;
    const ids = (rows: Row[]) => rows.map((r) => r.content.id);

    const all = await page("");
    expect(ids(all.data)).toEqual(["h1", "a1", "task-result", "a1-final", "h2", "a2"]);
    expect(all.has_more).toBe(false);
    expect(all.next_before_seq).toBeNull();

    const newest = await page("?limit=3");
    expect(ids(newest.data)).toEqual(["a1-final", "h2", "a2"]);
    expect(newest.has_more).toBe(true);
    expect(newest.next_before_seq).toBe(newest.data[0]?.seq);
    const older = await page(`?limit=3&before_seq=${newest.next_before_seq}`);
    expect(ids(older.data)).toEqual(["h1", "a1", "task-result"]);
    expect(older.has_more).toBe(false);

    // The thread's plain message list is the full record, callers and all.
    const full = (await (
      await fetch(`${h.apiUrl}/threads/${threadId}/messages?limit=200`)
    ).json()) as Row[];
    expect(full).toHaveLength(200);
    expect(full.some((r) => r.metadata.caller === "middleware:title")).toBe(true);
  });
});
