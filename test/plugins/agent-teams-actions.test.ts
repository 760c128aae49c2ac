/**
 * The agent-teams actions' input checks: exact field sets, size limits, owner scoping, and the
 * resume rules (8 KiB, text answers to clarifications, a clarification that moved on).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { agentTeamsPlugin, installAgentTeams } from "../../src/plugins/agent-teams/index.js";
import {
  context,
  create,
  type LoadedTeams,
  loadTeamsPlugin,
  producingTask,
  send,
} from "../seeds/fixtures/teams-plugin.js";
import { Runs } from "../seeds/fixtures/teams-runs-fake.js";

let plugin: LoadedTeams;

beforeEach(async () => {
  plugin = await loadTeamsPlugin();
});

afterEach(async () => {
  await plugin.close();
});

const call = (name: string, payload: Record<string, unknown>, runs: Runs, owner = "alice") =>
  plugin.actions[name]?.(payload, context(runs, owner));

describe("agent-teams plugin declaration and config", () => {
  it("declares its namespace, API version, actions and tools", async () => {
    expect(agentTeamsPlugin.namespace).toBe("community.agent-teams");
    expect(agentTeamsPlugin.apiVersion).toBe("1.0");
    const contributions = await agentTeamsPlugin.install({ enabled: true });
    expect(contributions.actions?.map((a) => a.name)).toEqual([
      "create",
      "list",
      "get",
      "connect",
      "send",
      "cancel",
      "resume",
      "delete",
    ]);
    expect(contributions.tools?.map((t) => t.name)).toEqual([
      "send_member",
      "read_team_context",
      "register_team_artifact",
    ]);
  });

  it("refuses a non-boolean enabled, a relative storage path and unknown keys", () => {
    expect(() => installAgentTeams({ enabled: "yes" })).toThrow("boolean");
    expect(() => installAgentTeams({ enabled: true, storage_path: "teams.sqlite" })).toThrow(
      "absolute",
    );
    expect(() => installAgentTeams({ enabled: true, extra: 1 })).toThrow("extra");
  });
});

describe("agent-teams actions validate their input", () => {
  it("rejects unknown fields, bad member lists and foreign owners", async () => {
    const runs = new Runs();
    await expect(call("list", { extra: 1 }, runs)).rejects.toThrow('Unexpected field "extra"');
    await expect(
      call(
        "create",
        { request_id: "r", name: "T", goal: "g", members: [{ name: "A", agent: "a" }] },
        runs,
      ),
    ).rejects.toThrow("limit");
    await expect(
      call(
        "create",
        {
          request_id: "r",
          name: "T",
          goal: "g",
          members: [
            { name: "A", agent: "a" },
            { name: "A", agent: "b" },
          ],
        },
        runs,
      ),
    ).rejects.toThrow("distinct");
    const team = await create(plugin.actions, runs);
    await expect(call("get", { team_id: team.id }, runs, "mallory")).rejects.toThrow(
      "Team unavailable",
    );
    const member = team.members[0];
    if (member === undefined) throw new Error("member expected");
    await expect(
      call(
        "send",
        { team_id: team.id, member_id: member.id, text: "x", request_id: "q" },
        runs,
        "mallory",
      ),
    ).rejects.toThrow("Team unavailable");
    const listed = (await call("list", {}, runs, "mallory")) as { teams: unknown[] };
    expect(listed.teams).toEqual([]);
  });

  it("bounds request text and counts requests against the team limit", async () => {
    const runs = new Runs();
    const team = await create(plugin.actions, runs);
    const member = team.members[0];
    if (member === undefined) throw new Error("member expected");
    await expect(
      send(plugin, runs, {
        team_id: team.id,
        member_id: member.id,
        text: "é".repeat(4001),
        request_id: "big",
      }),
    ).rejects.toThrow("limit");
    await expect(
      send(plugin, runs, {
        team_id: team.id,
        member_id: member.id,
        text: "€".repeat(3000),
        request_id: "bytes",
      }),
    ).rejects.toThrow("bytes");
    for (let i = 0; i < 100; i++) {
      await send(plugin, runs, {
        team_id: team.id,
        member_id: member.id,
        text: `t${i}`,
        request_id: `r${i}`,
      });
    }
    await expect(
      send(plugin, runs, {
        team_id: team.id,
        member_id: member.id,
        text: "one more",
        request_id: "r100",
      }),
    ).rejects.toThrow("limit");
    // The same request id with the same content is the same job; other content is refused.
    const again = await send(plugin, runs, {
      team_id: team.id,
      member_id: member.id,
      text: "t1",
      request_id: "r1",
    });
    expect(again.status).toBe("queued");
    await expect(
      send(plugin, runs, {
        team_id: team.id,
        member_id: member.id,
        text: "changed",
        request_id: "r1",
      }),
    ).rejects.toThrow("different request");
  });

  it("refuses attachments that are not ready artifacts of the team", async () => {
    const runs = new Runs();
    const team = await create(plugin.actions, runs);
    const member = team.members[0];
    if (member === undefined) throw new Error("member expected");
    await expect(
      send(plugin, runs, {
        team_id: team.id,
        member_id: member.id,
        text: "x",
        request_id: "q",
        artifacts: [{ artifact_id: "nope", version: 1 }],
      }),
    ).rejects.toThrow("not a ready file");
  });

  it("resume checks the 8 KiB bound, text answers and a clarification that moved on", async () => {
    const { runs, team, author, job } = await producingTask(plugin);
    runs.finish(job.id);
    const thread = runs.threads.get(author.thread_id);
    const question = {
      type: "tool",
      id: "clarify-1",
      name: "ask_clarification",
      tool_call_id: "q",
      content: "Which environment?",
      artifact: {
        human_input: {
          kind: "human_input_request",
          request_id: "clarify-1",
          question: "Which environment?",
        },
      },
    };
    thread?.values.messages.push(question);
    await plugin.teams.tick();
    const resume = (response: unknown, request = "answer") =>
      call("resume", { team_id: team.id, job_id: job.id, response, request_id: request }, runs);
    await expect(resume("x".repeat(8001))).rejects.toThrow("8 KiB");
    await expect(resume({ approved: true })).rejects.toThrow("Invalid response");
    thread?.values.messages.push({ type: "human", id: "later", content: "never mind" });
    await expect(resume("staging")).rejects.toThrow("Clarification changed");
    thread?.values.messages.pop();
    await expect(resume("staging")).resolves.toEqual({ id: job.id, status: "resuming" });
  });

  it("cancel stops an admitted job's run, then ends it cancelled", async () => {
    const { runs, team, job } = await producingTask(plugin);
    await expect(call("cancel", { team_id: team.id, job_id: job.id }, runs)).resolves.toEqual({
      id: job.id,
      status: "cancelling",
    });
    await plugin.teams.tick();
    expect(runs.runs.get(job.id)?.status).toBe("interrupted");
    await plugin.teams.tick();
    const stored = await plugin.teams.job("alice", team.id, job.id);
    expect(stored.status).toBe("cancelled");
  });

  it("delete is refused while a job is unfinished", async () => {
    const { runs, team } = await producingTask(plugin);
    await expect(call("delete", { team_id: team.id }, runs)).rejects.toThrow("unfinished");
  });
});
