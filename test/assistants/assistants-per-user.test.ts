/**
 * Assistants under `auth.mode: local`: an assistant belongs to the user who created it and is
 * invisible (404) to everyone else on every route, runs included; the system assistants are
 * visible to all and changed by none. Across a restart over the same SQLite database the
 * assistants, their versions and their owners persist, and the system assistants are not
 * written twice.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiToken, registerUser } from "../auth/helpers/http-session.js";
import { say } from "../gateway/helpers/sdk-stream.js";
import { type AssistantsHarness, startAssistantsHarness } from "./helpers/assistants-harness.js";

const AUTH = { auth: { mode: "local", allow_registration: true } };
let home = "";
let h: AssistantsHarness;
let alice: Client;
let bob: Client;
let aliceToken = "";
let bobToken = "";

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "fawn-assistants-users-"));
  h = await startAssistantsHarness({ database: "sqlite", config: AUTH, home });
  aliceToken = await createApiToken(
    h.apiUrl,
    await registerUser(h.apiUrl, "alice@example.org", "alice password"),
  );
  bobToken = await createApiToken(
    h.apiUrl,
    await registerUser(h.apiUrl, "bob@example.org", "bob password 1"),
  );
  alice = h.client({ Authorization: `Bearer ${aliceToken}` });
  bob = h.client({ Authorization: `Bearer ${bobToken}` });
});
afterAll(async () => {
  await h?.close();
  await rm(home, { recursive: true, force: true });
});

describe("assistants per user", () => {
  let aliceAssistant = "";

  it("shows a user's assistant to that user only", async () => {
    const created = await alice.assistants.create({
      graphId: "echo",
      name: "alice's",
      config: { configurable: { k: 1 } },
    });
    aliceAssistant = created.assistant_id;
    expect((await alice.assistants.get(aliceAssistant)).name).toBe("alice's");
    const id = aliceAssistant;
    for (const call of [
      () => bob.assistants.get(id),
      () => bob.assistants.update(id, { name: "taken" }),
      () => bob.assistants.delete(id),
      () => bob.assistants.getVersions(id),
      () => bob.assistants.setLatest(id, 1),
      () => bob.assistants.getGraph(id),
      () => bob.assistants.getSchemas(id),
      () => bob.runs.wait(null, id, { input: say("x") }),
    ]) {
      await expect(call()).rejects.toMatchObject({ status: 404 });
    }
    expect((await bob.assistants.search({ graphId: "echo" })).map((a) => a.assistant_id)).toEqual([
      "echo",
    ]);
    expect(await bob.assistants.count({ graphId: "echo" })).toBe(1);
    expect(await alice.assistants.count({ graphId: "echo" })).toBe(2);
    // Bob cannot take Alice's id either, even with do_nothing.
    await expect(
      bob.assistants.create({ graphId: "echo", assistantId: id, ifExists: "do_nothing" }),
    ).rejects.toMatchObject({ status: 409 });
    expect((await alice.assistants.get(id)).version).toBe(1);
  });

  it("lets everyone see and run the system assistants, and nobody change them", async () => {
    expect((await bob.assistants.get("echo")).metadata).toMatchObject({ created_by: "system" });
    await bob.runs.wait(null, "echo", { input: say("hi") });
    await expect(bob.assistants.update("echo", { name: "mine" })).rejects.toMatchObject({
      status: 403,
    });
    await expect(alice.assistants.delete("lead_agent")).rejects.toMatchObject({ status: 403 });
    await expect(alice.assistants.setLatest("echo", 1)).rejects.toMatchObject({ status: 403 });
  });

  it("runs the owner's assistant with its config; the stored run keeps the graph id", async () => {
    const thread = await alice.threads.create();
    const run = await alice.runs.create(thread.thread_id, aliceAssistant, { input: say("hi") });
    await alice.runs.join(thread.thread_id, run.run_id);
    expect(h.builds.at(-1)).toMatchObject({ graphId: "echo", config: { configurable: { k: 1 } } });
    // Read back from SQLite: a queued or recovered run executes the graph it was admitted for.
    const row = await h.fawn.stores.runs.get(run.run_id);
    expect(row).toMatchObject({ assistant_id: aliceAssistant, kwargs: { graph_id: "echo" } });
  });

  it("keeps assistants, versions and owners across a restart, writing system ones once", async () => {
    await alice.assistants.update(aliceAssistant, { name: "renamed" });
    await h.close();
    h = await startAssistantsHarness({ database: "sqlite", config: AUTH, home });
    alice = h.client({ Authorization: `Bearer ${aliceToken}` });
    bob = h.client({ Authorization: `Bearer ${bobToken}` });
    expect(await alice.assistants.get(aliceAssistant)).toMatchObject({
      name: "renamed",
      version: 2,
    });
    expect((await alice.assistants.getVersions(aliceAssistant)).map((v) => v.version)).toEqual([
      2, 1,
    ]);
    await expect(bob.assistants.get(aliceAssistant)).rejects.toMatchObject({ status: 404 });
    const system = await bob.assistants.search({ metadata: { created_by: "system" } });
    expect(system.map((a) => a.assistant_id).sort()).toEqual(["echo", "lead_agent"]);
    expect(await bob.assistants.getVersions("echo")).toHaveLength(1);
  });
});
