/**
 * `GET /metrics` over a real served gateway with a scripted model: counters and gauges move as
 * runs are admitted, hang, complete, fail and are cancelled. Readiness: `GET /health/ready` is
 * 200 while the database answers and 503 once the server drains.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { type ServedGateway, startServedGateway } from "../e2e/helpers/served-gateway.js";

/** One sample's value from the text exposition; 0 when the series is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split("\n")) {
    if (!line.startsWith(name)) continue;
    const match = /^([a-z_]+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = Object.fromEntries(
      (match[2] ?? "")
        .split(",")
        .filter((pair) => pair.length > 0)
        .map((pair) => {
          const [key = "", value = ""] = pair.split("=");
          return [key, value.replace(/^"|"$/g, "")];
        }),
    );
    if (Object.entries(labels).every(([key, value]) => have[key] === value)) {
      return Number(match[3]);
    }
  }
  return 0;
}

async function waitFor(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 300; i += 1) {
    if (await check()) return;
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}`);
}

let served: ServedGateway;

beforeAll(async () => {
  served = await startServedGateway({
    config: (home) => ({
      sandbox: { use: "local" },
      models: [
        { name: "scripted", use: "scripted", model: "s", script: join(home, "script.yaml") },
      ],
    }),
  });
  await writeFile(
    join(served.home, "script.yaml"),
    stringify([{ match: "hang", hang: true }, { turns: [{ content: "done" }] }]),
  );
}, 60_000);

afterAll(async () => {
  await served?.close();
});

async function scrape(): Promise<string> {
  const response = await fetch(`${served.url}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/plain");
  return response.text();
}

const human = (text: string) => ({ messages: [{ role: "human", content: text }] });

describe("GET /metrics", () => {
  it("counts runs started, active, finished by status, with default process metrics", async () => {
    const before = await scrape();
    expect(before).toContain("fawn_process_cpu_user_seconds_total");
    expect(sample(before, "fawn_runs_active")).toBe(0);
    const client = served.client();

    const thread = await client.threads.create();
    const done = await client.runs.wait(thread.thread_id, "lead_agent", { input: human("hi") });
    expect(done).toBeTruthy();
    const afterOne = await scrape();
    const finished = (status: string, text: string) =>
      sample(text, "fawn_runs_finished_total", { graph: "lead_agent", status });
    expect(sample(afterOne, "fawn_runs_started_total", { graph: "lead_agent" })).toBe(1);
    expect(finished("success", afterOne)).toBe(1);
    expect(sample(afterOne, "fawn_run_admission_seconds_count")).toBe(1);
    expect(sample(afterOne, "fawn_run_first_event_seconds_count")).toBe(1);
    const tokens = { model: "scripted:scripted", kind: "output" };
    expect(sample(afterOne, "fawn_tokens_total", tokens)).toBeGreaterThan(0);

    // A hanging run: active while it hangs, an SSE subscriber while it is joined.
    const other = await client.threads.create();
    const hanging = await client.runs.create(other.thread_id, "lead_agent", {
      input: human("hang please"),
    });
    await waitFor("the hanging run to be active", async () => {
      return sample(await scrape(), "fawn_runs_active") === 1;
    });
    const stream = client.runs.joinStream(other.thread_id, hanging.run_id);
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next();
    await waitFor("the stream to count", async () => {
      return sample(await scrape(), "fawn_sse_subscribers") === 1;
    });
    const during = await scrape();
    expect(finished("interrupted", during)).toBe(0);
    // No ids in any label.
    expect(during).not.toContain(hanging.run_id);
    expect(during).not.toContain(other.thread_id);

    await client.runs.cancel(other.thread_id, hanging.run_id, true);
    await iterator.return?.(undefined);
    await waitFor("the cancelled run to be counted", async () => {
      const text = await scrape();
      return (
        finished("interrupted", text) + finished("error", text) === 1 &&
        sample(text, "fawn_runs_active") === 0
      );
    });
    await waitFor("the stream to close", async () => {
      return sample(await scrape(), "fawn_sse_subscribers") === 0;
    });
    const after = await scrape();
    expect(sample(after, "fawn_runs_started_total", { graph: "lead_agent" })).toBe(2);
    expect(finished("success", after)).toBe(1);
  }, 60_000);
});

describe("GET /metrics: journal, bridge and sandbox pool", () => {
  it("times journal batches and bridge publishes, and shows the sandbox pool", async () => {
    const client = served.client();
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, "lead_agent", { input: human("hi again") });
    const text = await scrape();
    expect(sample(text, "fawn_journal_write_seconds_count", { outcome: "ok" })).toBeGreaterThan(0);
    expect(sample(text, "fawn_journal_batch_events_sum")).toBeGreaterThan(0);
    expect(sample(text, "fawn_bridge_publish_seconds_count")).toBeGreaterThan(0);
    // The in-process bridge's ids carry no time: no lag samples, the series is still there.
    expect(text).toContain("fawn_bridge_delivery_lag_seconds_count 0");
    expect(text).toMatch(/^fawn_sandboxes_active \d+$/m);
    expect(text).toMatch(/^fawn_sandboxes_warm \d+$/m);
  }, 60_000);
});

describe("GET /health/live and /health/ready", () => {
  it("is live and ready, then not ready (503 with a code) once the server drains", async () => {
    expect((await fetch(`${served.url}/health/live`)).status).toBe(200);
    const ready = await fetch(`${served.url}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: "ready" });
    const { manager } = served.fawn;
    // Draining starts at shutdown; the HTTP server still answers probes meanwhile.
    await manager.shutdown({ timeoutMs: 1000 });
    const draining = await fetch(`${served.url}/health/ready`);
    expect(draining.status).toBe(503);
    expect(await draining.json()).toMatchObject({ code: "server_draining" });
    expect((await fetch(`${served.url}/health/live`)).status).toBe(200);
  });
});
