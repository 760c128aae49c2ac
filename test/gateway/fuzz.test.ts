/**
 * Fuzz: well over 1,000 generated malformed requests across the routes (bad JSON, wrong types,
 * unknown fields, huge strings, hostile ids and query values, JSON nested 5,000 deep, filters of
 * thousands of keys, prototype keys). Every answer must be a 4xx with a `detail` key, never a
 * 5xx; the server stays healthy and no stored state changes. Requests Node's HTTP parser refuses
 * (sent on raw sockets) get a JSON `{detail}` too, and stalled requests are cut by the timeouts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresTestDatabase } from "../helpers/postgres.js";
import { rawHttpExchange } from "../helpers/raw-http.js";
import { type GatewayHarness, startGatewayHarness } from "./helpers/gateway-harness.js";
import { say } from "./helpers/sdk-stream.js";

const postgres = await createPostgresTestDatabase("fuzz_edge");
let h: GatewayHarness;
let threadId = "";
let runId = "";

beforeAll(async () => {
  h = await startGatewayHarness();
  const thread = await h.client.threads.create({ metadata: { fuzz: "baseline" } });
  threadId = thread.thread_id;
  const run = await h.client.runs.create(threadId, "lead_agent", {
    input: { messages: [{ role: "user", content: "baseline" }] },
  });
  runId = run.run_id;
  await h.client.runs.join(threadId, runId);
});
afterAll(async () => {
  await h?.close();
});

/** Deterministic PRNG (mulberry32) so a failure reproduces. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface FuzzRequest {
  method: string;
  path: string;
  body?: string;
  headers?: Record<string, string>;
  why: string;
}

const HUGE = "x".repeat(100_000);
/** Ids outside `[A-Za-z0-9_-]{1,64}`: every one must be refused before any lookup. */
const HOSTILE_IDS = [
  "..%2F..%2Fetc%2Fpasswd",
  "a%00b",
  "%27%20OR%201%3D1--",
  "%3Cscript%3E",
  "%F0%9F%90%9B",
  "a".repeat(65),
  "b".repeat(5000),
  "with%20space",
  "semi%3Bcolon",
  "%E2%80%AE",
  "dot.dot",
];
const BAD_JSON = [
  '{"limit": 1e999}',
  '{"metadata": {"a": 1}, "metadata_": 2}',
  '{"a":',
  "{'single': 1}",
  "[1,2",
  "nul",
  '{"x":1}}',
  "\u0000\u0001",
  "{,}",
  '"unterminated',
  '{"a":NaN}',
];
const WRONG_VALUES: unknown[] = [
  42,
  -1,
  2.5,
  true,
  "string",
  [],
  [1, "two"],
  { nested: { deep: [null] } },
  HUGE,
];
const BAD_QUERY_VALUES = [
  "-1",
  "abc",
  "1e309",
  "99999999999999999999",
  "",
  "%00",
  HUGE.slice(0, 3000),
  "1.5",
  "true",
];

type Route = {
  method: string;
  path: (tid: string, rid: string) => string;
  /** Known body fields (JSON routes); wrong values are generated for each. */
  fields?: string[];
  /** Whether an empty body is also an error. */
  bodyRequired?: boolean;
  query?: string[];
};

const ROUTES: Route[] = [
  {
    method: "POST",
    path: () => "/threads",
    fields: ["thread_id", "metadata", "if_exists", "supersteps", "ttl"],
  },
  {
    method: "POST",
    path: () => "/threads/search",
    fields: ["metadata", "ids", "limit", "offset", "status", "sort_by", "sort_order", "select"],
  },
  { method: "POST", path: () => "/threads/count", fields: ["metadata", "status", "values"] },
  { method: "PATCH", path: (t) => `/threads/${t}`, fields: ["metadata", "ttl"] },
  {
    method: "POST",
    path: (t) => `/threads/${t}/state`,
    fields: ["values", "checkpoint", "checkpoint_id", "as_node"],
    bodyRequired: true,
  },
  {
    method: "POST",
    path: (t) => `/threads/${t}/state/checkpoint`,
    fields: ["checkpoint", "subgraphs"],
    bodyRequired: true,
  },
  {
    method: "POST",
    path: (t) => `/threads/${t}/history`,
    fields: ["limit", "before", "metadata", "checkpoint"],
  },
  ...["/runs", "/runs/stream", "/runs/wait"].flatMap((suffix): Route[] => [
    {
      method: "POST",
      path: (t) => `/threads/${t}${suffix}`,
      bodyRequired: true,
      fields: [
        "input",
        "command",
        "config",
        "stream_mode",
        "multitask_strategy",
        "checkpoint",
        "interrupt_before",
        "after_seconds",
        "webhook",
        "on_disconnect",
        "durability",
        "if_not_exists",
        "assistant_id",
      ],
    },
    {
      method: "POST",
      path: () => suffix,
      bodyRequired: true,
      fields: ["input", "config", "stream_mode", "command", "metadata", "context"],
    },
  ]),
  {
    method: "POST",
    path: () => "/assistants/search",
    fields: ["limit", "offset", "graph_id", "metadata"],
  },
];

const QUERY_ROUTES: Route[] = [
  { method: "GET", path: (t) => `/threads/${t}/runs`, query: ["limit", "offset", "status"] },
  { method: "POST", path: (t, r) => `/threads/${t}/runs/${r}/cancel`, query: ["wait", "action"] },
  {
    method: "GET",
    path: (t, r) => `/threads/${t}/runs/${r}/events`,
    query: ["limit", "after_seq", "event_types"],
  },
  {
    method: "GET",
    path: (t, r) => `/threads/${t}/runs/${r}/messages`,
    query: ["limit", "before_seq", "after_seq"],
  },
  { method: "GET", path: (t) => `/threads/${t}/messages`, query: ["limit", "before_seq"] },
  {
    method: "GET",
    path: (t) => `/threads/${t}/messages/page`,
    query: ["limit", "before_seq", "after_seq"],
  },
  {
    method: "GET",
    path: (t, r) => `/threads/${t}/runs/${r}/stream`,
    query: ["stream_mode", "cancel_on_disconnect", "action"],
  },
  {
    method: "GET",
    path: (t, r) => `/threads/${t}/runs/${r}/join`,
    query: ["cancel_on_disconnect"],
  },
  { method: "GET", path: (t) => `/threads/${t}/history`, query: ["limit"] },
];

const ID_ROUTES: Array<[string, (id: string) => string]> = [
  ["GET", (id) => `/threads/${id}`],
  ["DELETE", (id) => `/threads/${id}`],
  ["GET", (id) => `/threads/${id}/state`],
  ["GET", (id) => `/threads/${id}/runs`],
  ["POST", (id) => `/threads/${id}/runs/wait`],
  ["GET", (id) => `/threads/${id}/runs/${id}`],
  ["DELETE", (id) => `/threads/${id}/runs/${id}`],
  ["POST", (id) => `/threads/${id}/runs/${id}/cancel`],
  ["GET", (id) => `/threads/${id}/runs/${id}/stream`],
  ["GET", (id) => `/threads/${id}/runs/${id}/events`],
];

/** `{"a":{"a":…1…}}` nested `depth` levels (as text: JSON.stringify itself recurses). */
function deepObjectJson(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
}

function manyKeys(count: number): Record<string, number> {
  return Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, i]));
}

const DEEP = deepObjectJson(5000);

/**
 * Deterministic bad input that once reached the stores (a stack overflow there answered as a
 * retryable 503) or the graph: each must be a 422 whose message names the limit it broke.
 */
function edgeRequests(t = threadId, r = runId): FuzzRequest[] {
  const json = { "content-type": "application/json" };
  const post = (path: string, body: string, why: string): FuzzRequest => ({
    method: "POST",
    path,
    body,
    headers: json,
    why,
  });
  const input = JSON.stringify(say("hi"));
  const out: FuzzRequest[] = [
    post("/threads", `{"metadata":${DEEP}}`, "metadata 5,000 deep"),
    post(`/threads/${t}/runs`, `{"input":${input},"metadata":${DEEP}}`, "run metadata 5,000 deep"),
    post(`/threads/${t}/runs`, `{"input":{"messages":[${DEEP}]}}`, "run input 5,000 deep"),
    post(`/threads/${t}/runs/wait`, `{"input":${input},"config":${DEEP}}`, "config 5,000 deep"),
    post("/runs/wait", `{"input":${input},"metadata":${DEEP}}`, "stateless metadata 5,000 deep"),
    post("/threads/search", `{"metadata":${DEEP}}`, "search filter 5,000 deep"),
    post("/threads/count", `{"metadata":${DEEP}}`, "count filter 5,000 deep"),
    post(`/threads/${t}/state`, `{"values":${DEEP}}`, "state values 5,000 deep"),
    post(`/threads/${t}/history`, `{"metadata":${DEEP}}`, "history filter 5,000 deep"),
    post("/assistants/search", `{"metadata":${DEEP}}`, "assistant filter 5,000 deep"),
    post("/threads", `{"metadata":${"[".repeat(5000)}${"]".repeat(5000)}}`, "arrays 5,000 deep"),
    {
      method: "PATCH",
      path: `/threads/${t}`,
      body: `{"metadata":${DEEP}}`,
      headers: json,
      why: "patch metadata 5,000 deep",
    },
    post("/threads/search", JSON.stringify({ metadata: manyKeys(10_000) }), "10,000-key filter"),
    post("/threads/search", JSON.stringify({ metadata: manyKeys(1000) }), "1,000-key filter"),
    post("/threads/search", JSON.stringify({ metadata: manyKeys(33) }), "33-key filter"),
    post("/threads/count", JSON.stringify({ metadata: manyKeys(1000) }), "1,000-key count filter"),
    post("/threads/search", JSON.stringify({ values: manyKeys(1000) }), "1,000-key values filter"),
    post("/threads", JSON.stringify({ metadata: manyKeys(10_000) }), "10,000-key metadata"),
    post(
      `/threads/${t}/runs/wait`,
      '{"input":{"messages":[{"role":"user","content":"hi","__proto__":{"x":1}}]}}',
      "message with its own __proto__",
    ),
    post(
      `/threads/${t}/runs`,
      '{"input":{"messages":[{"role":"user","content":"hi","__proto__":null}]}}',
      "message with __proto__ null",
    ),
    post("/threads", '{"metadata":{"__proto__":{"polluted":true}}}', "metadata __proto__"),
    post(
      "/threads/search",
      '{"metadata":{"constructor":{"prototype":{"polluted":true}}}}',
      "constructor.prototype filter",
    ),
    {
      method: "GET",
      path: `/threads/${t}/runs/${r}/stream?stream_mode=${encodeURIComponent(
        `${"[".repeat(100)}${"]".repeat(100)}`,
      )}`,
      why: "stream_mode JSON 100 deep",
    },
  ];
  return out;
}

function generate(): FuzzRequest[] {
  const random = prng(0xfa57);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const out: FuzzRequest[] = [];
  const json = { "content-type": "application/json" };
  for (const route of ROUTES) {
    const path = route.path(threadId, runId);
    for (const bad of BAD_JSON)
      out.push({ method: route.method, path, body: bad, headers: json, why: "bad JSON" });
    out.push({
      method: route.method,
      path,
      body: JSON.stringify({ surprise_field: 1 }),
      headers: json,
      why: "unknown field",
    });
    out.push({
      method: route.method,
      path,
      body: JSON.stringify([1, 2, 3]),
      headers: json,
      why: "array body",
    });
    out.push({ method: route.method, path, body: "null", headers: json, why: "null body" });
    if (route.bodyRequired)
      out.push({ method: route.method, path, body: "", headers: json, why: "empty body" });
    for (const field of route.fields ?? []) {
      for (const value of WRONG_VALUES) {
        // A value of the right type for that field is not malformed; skip those pairs.
        if (isAcceptable(field, value)) continue;
        out.push({
          method: route.method,
          path,
          body: JSON.stringify({ [field]: value }),
          headers: json,
          why: `${field} = ${typeof value}`,
        });
      }
    }
    for (let i = 0; i < 20; i += 1) {
      const fields = route.fields ?? ["x"];
      const body: Record<string, unknown> = { [`unknown_${i}`]: pick(WRONG_VALUES) };
      for (let k = 0; k < 3; k += 1) body[pick(fields)] = pick(["ok", 1, null, {}, []]);
      out.push({
        method: route.method,
        path,
        body: JSON.stringify(body),
        headers: json,
        why: "random with unknown key",
      });
    }
  }
  for (const route of QUERY_ROUTES) {
    for (const param of route.query ?? []) {
      for (const value of BAD_QUERY_VALUES) {
        if (isAcceptableQuery(param, value)) continue;
        out.push({
          method: route.method,
          path: `${route.path(threadId, runId)}?${param}=${encodeURIComponent(value)}`,
          why: `query ${param}=${value.slice(0, 20)}`,
        });
      }
    }
  }
  for (const [method, path] of ID_ROUTES) {
    for (const id of HOSTILE_IDS)
      out.push({
        method,
        path: path(id),
        headers: json,
        body: method === "POST" ? "{}" : undefined,
        why: `hostile id ${id.slice(0, 20)}`,
      });
  }
  for (const id of HOSTILE_IDS) {
    out.push({
      method: "POST",
      path: "/threads",
      body: JSON.stringify({ thread_id: decodeURIComponent(id) }),
      headers: json,
      why: "hostile thread_id in body",
    });
    out.push({
      method: "POST",
      path: "/runs/wait",
      body: JSON.stringify({ config: { configurable: { thread_id: decodeURIComponent(id) } } }),
      headers: json,
      why: "hostile stateless thread_id",
    });
  }
  const badHeaders: Array<Record<string, string>> = [
    { "Idempotency-Key": "has space" },
    { "Idempotency-Key": "k".repeat(500) },
    { "Last-Event-ID": "e".repeat(1000) },
  ];
  for (const header of badHeaders) {
    out.push({
      method: "POST",
      path: `/threads/${threadId}/runs/stream`,
      body: JSON.stringify({ input: null }),
      headers: { ...json, ...header },
      why: "bad header",
    });
  }
  out.push(...edgeRequests());
  for (let i = 0; i < 30; i += 1) {
    out.push({
      method: pick(["GET", "PUT", "POST", "DELETE"]),
      path: `/no/such/route/${i}`,
      why: "unknown route",
    });
  }
  return out;
}

/** Fields where an arbitrary short string is a valid value. */
const FREE_STRING_FIELDS = new Set(["thread_id", "as_node", "before", "checkpoint_id", "graph_id"]);

/** Pairs where the generated "wrong" value is in fact valid for that field. */
function isAcceptable(field: string, value: unknown): boolean {
  const object = typeof value === "object" && value !== null && !Array.isArray(value);
  if (value === "string" && FREE_STRING_FIELDS.has(field)) return true;
  switch (field) {
    case "ttl":
      return typeof value === "number" && value >= 0;
    case "metadata":
    case "context":
    case "values":
      return (
        object ||
        (field === "values" && Array.isArray(value) && value.every((v) => typeof v === "object"))
      );
    case "config":
    case "input":
    case "command":
      return object && field !== "command";
    case "interrupt_before":
    case "stream_mode":
      return Array.isArray(value) && value.length === 0;
    case "ids":
    case "select":
      return Array.isArray(value) && value.length === 0;
    case "supersteps":
      return Array.isArray(value) && value.length === 0;
    case "after_seconds":
      return typeof value === "number" && value >= 0 && value <= 86_400;
    case "limit":
      return typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= 1000;
    case "offset":
      return (
        typeof value === "number" && value >= 0 && value <= 1_000_000 && Number.isInteger(value)
      );
    default:
      return false;
  }
}

function isAcceptableQuery(param: string, value: string): boolean {
  if (value === "") return param === "event_types" || param === "stream_mode";
  if (param === "wait" || param === "cancel_on_disconnect") return value === "true";
  if (param === "event_types") return value.length < 2000 && !value.includes("x".repeat(65));
  return false;
}

async function snapshot(): Promise<string> {
  const threads = await h.client.threads.search({ limit: 1000 });
  const rows = await Promise.all(
    threads.map(async (t) => ({
      thread: [t.thread_id, t.updated_at, t.status, t.metadata],
      runs: (await h.client.runs.list(t.thread_id, { limit: 1000 })).map((r) => [
        r.run_id,
        r.status,
        r.updated_at,
      ]),
      checkpoint: (await h.client.threads.getState(t.thread_id)).checkpoint?.checkpoint_id ?? null,
    })),
  );
  return JSON.stringify(
    rows.sort((a, b) => String(a.thread[0]).localeCompare(String(b.thread[0]))),
  );
}

/** Each edge request must be a 422 naming its limit; returns those that were not. */
async function edgeRequestsMisanswered(
  harness: GatewayHarness,
  requests: FuzzRequest[],
): Promise<string[]> {
  const wrong: string[] = [];
  for (const request of requests) {
    const response = await fetch(`${harness.apiUrl}${request.path}`, {
      method: request.method,
      ...(request.headers ? { headers: request.headers } : {}),
      ...(request.body !== undefined ? { body: request.body } : {}),
    });
    const text = await response.text();
    if (response.status !== 422 || !/limit|not accepted/.test(text)) {
      wrong.push(`[${request.why}] → ${response.status} ${text.slice(0, 200)}`);
    }
  }
  return wrong;
}

describe("fuzzing the gateway", () => {
  it("answers every malformed request with a 4xx {detail}, changing nothing", async () => {
    const requests = generate();
    expect(requests.length).toBeGreaterThanOrEqual(1000);
    const before = await snapshot();
    const failures: string[] = [];
    for (let i = 0; i < requests.length; i += 25) {
      await Promise.all(
        requests.slice(i, i + 25).map(async (request) => {
          const response = await fetch(`${h.apiUrl}${request.path}`, {
            method: request.method,
            ...(request.headers ? { headers: request.headers } : {}),
            ...(request.body !== undefined ? { body: request.body } : {}),
          });
          const text = await response.text();
          let detail = false;
          try {
            detail =
              typeof JSON.parse(text) === "object" &&
              JSON.parse(text) !== null &&
              "detail" in JSON.parse(text);
          } catch {
            detail = false;
          }
          if (response.status < 400 || response.status >= 500 || !detail) {
            failures.push(
              `${request.method} ${request.path.slice(0, 120)} [${request.why}] → ${response.status} ${text.slice(0, 200)}`,
            );
          }
        }),
      );
    }
    expect(failures).toEqual([]);
    expect(await snapshot()).toBe(before);
  });

  it("answers over-limit and prototype-key JSON with a 422 naming the limit", async () => {
    const before = await snapshot();
    expect(await edgeRequestsMisanswered(h, edgeRequests())).toEqual([]);
    expect(await snapshot()).toBe(before);
  });

  it("answers a 32-key filter (the limit) normally", async () => {
    const response = await fetch(`${h.apiUrl}/threads/search`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ metadata: { ...manyKeys(31), fuzz: "baseline" } }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([]);
  });

  it("answers requests Node's parser refuses with a JSON {detail} and closes", async () => {
    const cases: Array<[string, string]> = [
      ["bad request line", "GARBAGE\r\n\r\n"],
      ["bad HTTP version", "GET /health HTTP/9.x\r\nHost: x\r\n\r\n"],
      [
        "bad chunked encoding",
        "POST /api/threads HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" +
          "Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
      ],
      ["NUL in header", "GET /health HTTP/1.1\r\nHost: x\r\nX-Probe: a\u0000b\r\n\r\n"],
      [
        "content-length and chunked",
        "POST /api/threads HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n" +
          "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
      ],
    ];
    for (const [why, request] of cases) {
      const answer = await rawHttpExchange(h.url, [request]);
      expect({ why, status: answer.status }).toEqual({ why, status: 400 });
      expect(answer.headers["content-type"]).toBe("application/json");
      expect(answer.headers.connection).toBe("close");
      expect(JSON.parse(answer.body)).toEqual({
        detail: expect.stringContaining("Malformed HTTP request"),
        code: "bad_request",
      });
    }
    expect((await fetch(`${h.url}/health`)).status).toBe(200);
  });

  it("refuses bodies over the size limit with 413", async () => {
    const response = await fetch(`${h.apiUrl}/threads`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ metadata: { big: "y".repeat(21 * 1024 * 1024) } }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toHaveProperty("detail");
  });

  it("is healthy and serves runs afterwards", async () => {
    expect((await fetch(`${h.url}/health`)).status).toBe(200);
    const values = (await h.client.runs.wait(threadId, "lead_agent", {
      input: { messages: [{ role: "user", content: "still alive" }] },
    })) as { messages: unknown[] };
    expect(values.messages).toHaveLength(4);
  });
});

describe.skipIf(postgres === null)("edge limits in front of PostgreSQL stores", () => {
  let pgh: GatewayHarness;
  afterAll(async () => {
    await pgh?.close();
    await postgres?.drop();
  });

  it("answers deep, many-key and prototype-key JSON with 422, never a store 503", async () => {
    if (postgres === null) return;
    pgh = await startGatewayHarness({ database: { url: postgres.url } });
    const thread = await pgh.client.threads.create({ metadata: { fuzz: "pg" } });
    const run = await pgh.client.runs.create(thread.thread_id, "lead_agent", { input: say("pg") });
    await pgh.client.runs.join(thread.thread_id, run.run_id);
    expect(await edgeRequestsMisanswered(pgh, edgeRequests(thread.thread_id, run.run_id))).toEqual(
      [],
    );
    expect((await fetch(`${pgh.url}/health`)).status).toBe(200);
  }, 60_000);
});

describe("connection timeouts", () => {
  let slow: GatewayHarness;
  beforeAll(async () => {
    slow = await startGatewayHarness({
      serverTimeouts: { headersTimeoutSeconds: 1, requestTimeoutSeconds: 2 },
    });
  });
  afterAll(async () => {
    await slow?.close();
  });

  function expectTimeoutAnswer(answer: Awaited<ReturnType<typeof rawHttpExchange>>): void {
    expect(answer.status).toBe(408);
    expect(answer.headers.connection).toBe("close");
    expect(JSON.parse(answer.body)).toMatchObject({ code: "request_timeout" });
  }

  it("closes a request of only CRLFs with a 408 {detail} once the header timeout passes", async () => {
    // The socket stays open: only the server's header timeout can end this exchange.
    expectTimeoutAnswer(await rawHttpExchange(slow.url, ["\r\n".repeat(50)]));
  });

  it("closes a stalled upload body with a 408 {detail} once the request timeout passes", async () => {
    const thread = await slow.client.threads.create();
    const boundary = "fuzzboundary";
    const head =
      `POST /api/threads/${thread.thread_id}/uploads HTTP/1.1\r\nHost: x\r\n` +
      `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 100000\r\n\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="a.txt"\r\n\r\nab`;
    expectTimeoutAnswer(await rawHttpExchange(slow.url, [head]));
  });

  it("never cuts a response that outlives the request timeout (an SSE stream)", async () => {
    const thread = await slow.client.threads.create();
    const run = await slow.client.runs.create(thread.thread_id, "lead_agent", {
      input: say("hold:long-sse"),
    });
    await slow.controls.arrived("long-sse");
    const response = await fetch(
      `${slow.apiUrl}/threads/${thread.thread_id}/runs/${run.run_id}/stream`,
    );
    expect(response.status).toBe(200);
    // Past the 2 s request timeout and several of Node's timeout checks.
    await new Promise((resolve) => setTimeout(resolve, 3500));
    slow.controls.release("long-sse");
    const text = await response.text();
    expect(text).toContain("echo: hold:long-sse");
  });
});
