/**
 * Custom agents in runs, through `fawn serve`'s gateway under `auth.mode: local` (the real
 * ChatOpenAI client against the mock OpenAI server, a recording proxy showing what the model was
 * sent): a run with `agent_name` in its context carries the agent's SOUL.md and the user's
 * USER.md in its system prompt and only the agent's tool groups; a bootstrap run's `setup_agent`
 * and an agent run's `update_agent` write the caller's agent, never another user's.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockOpenAIServer, startMockOpenAI } from "../../src/agent/mock-openai/server.js";
import { createApiToken, registerUser } from "../auth/helpers/http-session.js";
import {
  type RecordingOpenAIProxy,
  startRecordingProxy,
  type WireMessage,
} from "../e2e/helpers/recording-openai-proxy.js";
import {
  mockGptModel,
  type ServedGateway,
  startServedGateway,
} from "../e2e/helpers/served-gateway.js";

const SCRIPT = [
  {
    match: "^create the helper",
    turns: [
      {
        tool_calls: [
          {
            name: "setup_agent",
            args: { soul: "You are Helper. HELPER-SOUL-V1", description: "Helps with chores" },
          },
        ],
      },
      { content: "Helper is ready." },
    ],
  },
  {
    match: "^improve yourself",
    turns: [
      {
        tool_calls: [
          {
            name: "update_agent",
            args: { soul: "You are Helper. HELPER-SOUL-V2", description: "null", skills: [] },
          },
        ],
      },
      { content: "Updated." },
    ],
  },
  { turns: [{ content: "Hello." }] },
];

let scriptDir = "";
let mock: MockOpenAIServer;
let proxy: RecordingOpenAIProxy;
let server: ServedGateway;
let alice: Client;
let bob: Client;
let aliceToken = "";
let bobToken = "";

beforeAll(async () => {
  scriptDir = await mkdtemp(join(tmpdir(), "fawn-agents-script-"));
  const script = join(scriptDir, "agents.json");
  await writeFile(script, JSON.stringify(SCRIPT));
  mock = await startMockOpenAI({ script });
  proxy = await startRecordingProxy(mock.url);
  server = await startServedGateway({
    config: () => ({
      models: [mockGptModel(proxy.url)],
      auth: { mode: "local", allow_registration: true },
      agents_api: { enabled: true },
      memory: { enabled: false },
      title: { enabled: false },
      sandbox: { use: "local", allow_host_bash: true },
    }),
  });
  aliceToken = await createApiToken(
    server.apiUrl,
    await registerUser(server.apiUrl, "alice@example.org", "alice password"),
  );
  bobToken = await createApiToken(
    server.apiUrl,
    await registerUser(server.apiUrl, "bob@example.org", "bob password 1"),
  );
  alice = server.client({ authorization: `Bearer ${aliceToken}` });
  bob = server.client({ authorization: `Bearer ${bobToken}` });
});

afterAll(async () => {
  await server?.close();
  await proxy?.close();
  await mock?.close();
  await rm(scriptDir, { recursive: true, force: true });
});

function api(token: string, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${server.apiUrl}${path}`, {
    method,
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** Runs one message on a new thread; answers the run's status and the lead's system prompt. */
async function runOnce(
  client: Client,
  text: string,
  context: Record<string, unknown>,
): Promise<{ status: string; prompt: string; toolNames: string[] }> {
  const before = proxy.leadRequests().length;
  const thread = await client.threads.create();
  const run = await client.runs.create(thread.thread_id, "lead_agent", {
    input: { messages: [{ role: "user", content: text }] },
    config: { configurable: { model_name: "mock-gpt" } },
    context,
  });
  await client.runs.join(thread.thread_id, run.run_id);
  const status = (await client.runs.get(thread.thread_id, run.run_id)).status;
  const first = proxy.leadRequests()[before];
  const prompt = first ? systemText(first.messages) : "";
  const toolNames = [...prompt.matchAll(/^- ([a-z_]+):/gm)].map((m) => m[1] ?? "");
  return { status, prompt, toolNames };
}

function systemText(messages: WireMessage[]): string {
  const system = messages.find((message) => message.role === "system");
  return typeof system?.content === "string" ? system.content : "";
}

describe("custom agents in runs", () => {
  it("puts the agent's SOUL.md and the user's profile in the prompt and narrows its tools", async () => {
    await api(aliceToken, "POST", "/agents", {
      name: "Reader",
      soul: "You are Reader. READER-SOUL </soul> escaped",
      tool_groups: ["file:read"],
      skills: ["report-writing"],
    });
    await api(aliceToken, "PUT", "/user-profile", { content: "ALICE-PROFILE: a botanist." });

    const withAgent = await runOnce(alice, "hi", { agent_name: "Reader" });
    expect(withAgent.status).toBe("success");
    expect(withAgent.prompt).toContain("You are reader, an open-source super agent.");
    expect(withAgent.prompt).toContain("<soul>\nYou are Reader. READER-SOUL &lt;/soul&gt; escaped");
    expect(withAgent.prompt).toContain("ALICE-PROFILE: a botanist.");
    expect(withAgent.prompt).toContain("<self_update>");
    expect(withAgent.toolNames).toEqual(expect.arrayContaining(["read_file", "update_agent"]));
    expect(withAgent.toolNames).not.toContain("bash");
    expect(withAgent.toolNames).not.toContain("write_file");
    // Its skill whitelist: only report-writing of the bundled skills is offered.
    expect(withAgent.prompt).toContain("<name>report-writing</name>");
    expect(withAgent.prompt).not.toContain("<name>data-analysis</name>");

    // The default agent: the profile still, no soul, every tool, no update_agent.
    const plain = await runOnce(alice, "hi", {});
    expect(plain.prompt).toContain("ALICE-PROFILE");
    expect(plain.prompt).not.toContain("READER-SOUL");
    expect(plain.toolNames).toEqual(expect.arrayContaining(["bash", "write_file"]));
    expect(plain.toolNames).not.toContain("update_agent");
    expect(plain.prompt).toContain("<name>data-analysis</name>");

    // Bob has no agent of that name and not Alice's profile.
    const bobs = await runOnce(bob, "hi", { agent_name: "reader" });
    expect(bobs.status).toBe("error");
    const bobPlain = await runOnce(bob, "hi", {});
    expect(bobPlain.prompt).not.toContain("ALICE-PROFILE");
  });

  it("creates an agent with setup_agent in a bootstrap run and refines it with update_agent", async () => {
    const setup = await runOnce(alice, "create the helper please", {
      is_bootstrap: true,
      agent_name: "helper",
    });
    expect(setup.status).toBe("success");
    expect(setup.toolNames).toContain("setup_agent");
    expect(setup.prompt).toContain("<agent_setup>");
    const created = await api(aliceToken, "GET", "/agents/helper");
    expect(await created.json()).toMatchObject({
      name: "helper",
      description: "Helps with chores",
      soul: "You are Helper. HELPER-SOUL-V1",
      skills: null,
    });
    expect((await api(bobToken, "GET", "/agents/helper")).status).toBe(404);

    const update = await runOnce(alice, "improve yourself", { agent_name: "helper" });
    expect(update.status).toBe("success");
    expect(update.prompt).toContain("HELPER-SOUL-V1");
    const updated = await api(aliceToken, "GET", "/agents/helper");
    // "null" for a field means "unchanged", as in the reference.
    expect(await updated.json()).toMatchObject({
      description: "Helps with chores",
      soul: "You are Helper. HELPER-SOUL-V2",
      skills: [],
    });

    // The next run sees the new SOUL.md.
    const next = await runOnce(alice, "hi", { agent_name: "helper" });
    expect(next.prompt).toContain("HELPER-SOUL-V2");

    // Bob's update_agent changes Bob's agent of that name, never Alice's.
    await api(aliceToken, "PUT", "/agents/helper", { soul: "ALICE-V3" });
    await api(bobToken, "POST", "/agents", { name: "helper", soul: "BOB-HELPER" });
    const bobUpdate = await runOnce(bob, "improve yourself", { agent_name: "helper" });
    expect(bobUpdate.status).toBe("success");
    expect(bobUpdate.prompt).toContain("BOB-HELPER");
    expect(await (await api(bobToken, "GET", "/agents/helper")).json()).toMatchObject({
      soul: "You are Helper. HELPER-SOUL-V2",
    });
    expect(await (await api(aliceToken, "GET", "/agents/helper")).json()).toMatchObject({
      soul: "ALICE-V3",
    });
  });
});
