/**
 * Agent teams end to end, in the server `fawn serve` builds: the built-in agent-teams plugin
 * enabled, a scripted lead agent for both members. The owner creates a team over HTTP and sends
 * Author a task; Author's run writes a report, registers it as a team artifact and presents it.
 * Once that job completed and the artifact is ready, the owner sends Editor a task carrying it:
 * the file is imported into Editor's uploads, Editor's run edits it into its outputs, registers
 * the result (version 2 of the same artifact) and presents it. The runs are read back with the
 * unmodified LangGraph SDK and the bytes compared at every hand-off.
 */
import { createHash } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { NAMESPACE } from "../../src/plugins/agent-teams/index.js";
import { identity } from "../../src/plugins/agent-teams/model.js";
import {
  memberTurns,
  OUTPUTS_REPORT as REPORT,
  type TeamView,
  teamsOverHttp,
} from "./helpers/agent-teams-http.js";
import { type ServedGateway, startServedGateway } from "./helpers/served-gateway.js";

const UPLOADED = "/mnt/user-data/uploads/report.md";
const DRAFT = "# Quarterly report\n\nRevenue grew by 12 %. Costs stayed flat.\n";
const EDITED = "# Quarterly report (edited)\n\nRevenue grew by 12 %; costs stayed flat.\n";

const sha256 = (bytes: Buffer): string => createHash("sha256").update(bytes).digest("hex");

let server: ServedGateway;
let client: Client;
let teams: ReturnType<typeof teamsOverHttp>;
/** The team the hand-off built, for the refused copy that follows it. */
let handedOff: { team: TeamView; artifactId: string } | null = null;

async function outputFile(threadId: string, path: string): Promise<Buffer> {
  const bytes = await teams.threadFile(threadId, path);
  if (bytes === null) throw new Error(`${path} is missing in thread ${threadId}`);
  return bytes;
}

/** The member's thread read with the SDK: one run, success, exactly one terminal event. */
async function checkMemberRun(threadId: string, runId: string | null) {
  expect(runId).not.toBeNull();
  const runs = await client.runs.list(threadId);
  expect(runs.map((r) => r.run_id)).toEqual([runId]);
  const run = await client.runs.get(threadId, String(runId));
  expect(run.status).toBe("success");
  const events = await teams.runEvents(threadId, String(runId));
  expect(events.filter((e) => e.event_type === "run.terminal")).toHaveLength(1);
  return client.threads.getState<{ messages: Array<{ type: string; content: unknown }> }>(threadId);
}

beforeAll(async () => {
  server = await startServedGateway({
    config: (home) => ({
      models: [{ name: "scripted", use: "scripted", model: "s", script: join(home, "team.yaml") }],
      plugins: [{ use: "agent-teams", config: { enabled: true } }],
    }),
  });
  client = server.client();
  teams = teamsOverHttp(server);
});

afterAll(async () => {
  await server?.close();
});

/** Above the bounded waits inside (each job at most a minute). */
const TEST_TIMEOUT_MS = 150_000;

describe("an agent team hands a file from one member to the next", () => {
  it(
    "runs Author then Editor, each artifact byte for byte what the member wrote",
    async () => {
      const team = await teams.action<TeamView>("create", {
        request_id: "handoff-team",
        name: "Reporters",
        goal: "Write and edit the quarterly report.",
        members: [
          { name: "Author", agent: "lead_agent" },
          { name: "Editor", agent: "lead_agent" },
        ],
      });
      expect(team.ready).toBe(true);
      const [author, editor] = team.members;
      if (author === undefined || editor === undefined) throw new Error("two members expected");
      // The script names the team, so it is written now: the model loads it at its first call.
      await writeFile(
        join(server.home, "team.yaml"),
        stringify([
          { match: "You are Author", turns: memberTurns(team.id, "Author", DRAFT, null) },
          { match: "You are Editor", turns: memberTurns(team.id, "Editor", EDITED, UPLOADED) },
        ]),
      );

      const authorJob = await teams.action<{ id: string }>("send", {
        team_id: team.id,
        member_id: author.id,
        text: "Write the quarterly report to outputs/report.md.",
        request_id: "task-author",
      });
      const artifactId = identity(team.id, "report");
      const { team: afterAuthor, job: authorView } = await teams.finishedJob(team.id, authorJob.id);
      expect(authorView).toMatchObject({ status: "completed", error: null });
      expect(authorView?.result).toBe("Author finished the report.");
      const v1 = afterAuthor.artifacts.find((a) => a.artifact_id === artifactId && a.version === 1);
      expect(v1).toMatchObject({
        name: "report",
        path: REPORT,
        status: "ready",
        size: Buffer.byteLength(DRAFT),
        source: { job_id: authorJob.id, member_id: author.id, thread_id: author.thread_id },
      });
      expect(v1?.source.run_id).toBe(authorView?.run_id);

      const authorState = await checkMemberRun(author.thread_id, authorView?.run_id ?? null);
      expect(authorState.values.messages.at(-1)?.content).toBe("Author finished the report.");
      const authorOutput = await outputFile(author.thread_id, REPORT);
      expect(authorOutput.toString("utf8")).toBe(DRAFT);
      expect(await teams.artifactBytes(team.id, artifactId, 1)).toEqual(authorOutput);
      expect(v1?.sha256).toBe(sha256(authorOutput));

      const editorJob = await teams.action<{ id: string }>("send", {
        team_id: team.id,
        member_id: editor.id,
        text: "Edit the attached report.",
        request_id: "task-editor",
        artifacts: [{ artifact_id: artifactId, version: 1 }],
      });
      const { team: afterEditor, job: editorView } = await teams.finishedJob(team.id, editorJob.id);
      expect(editorView).toMatchObject({ status: "completed", error: null });
      expect(editorView?.result).toBe("Editor finished the report.");

      const editorState = await checkMemberRun(editor.thread_id, editorView?.run_id ?? null);
      const [input] = editorState.values.messages;
      const inputText = typeof input?.content === "string" ? input.content : "";
      expect(inputText.startsWith("Team collaboration request.")).toBe(true);
      const listed = JSON.parse(inputText.slice(inputText.indexOf("{"))) as {
        files: Array<{ name: string; path: string }>;
      };
      expect(listed.files).toEqual([{ name: "report", path: UPLOADED }]);
      // The imported copy is v1 byte for byte, and the agent read exactly that.
      expect(await outputFile(editor.thread_id, UPLOADED)).toEqual(authorOutput);
      const readBack = editorState.values.messages.find(
        (m) => m.type === "tool" && typeof m.content === "string" && m.content.includes("Revenue"),
      );
      expect(readBack?.content).toContain("Revenue grew by 12 %. Costs stayed flat.");

      // The run was admitted as the plugin's, carrying the import's receipt for the pre-agent check.
      const editorRow = await server.fawn.stores.runs.get(String(editorView?.run_id));
      expect(editorRow?.kwargs.origin).toEqual({ kind: "extension", namespace: NAMESPACE });
      expect(editorRow?.kwargs.artifact_imports).toEqual([
        {
          filename: "report.md",
          path: UPLOADED,
          sha256: v1?.sha256,
          size: Buffer.byteLength(DRAFT),
        },
      ]);

      const v2 = afterEditor.artifacts.find((a) => a.artifact_id === artifactId && a.version === 2);
      expect(v2).toMatchObject({
        name: "report",
        status: "ready",
        size: Buffer.byteLength(EDITED),
        source: { job_id: editorJob.id, member_id: editor.id, thread_id: editor.thread_id },
      });
      const editorOutput = await outputFile(editor.thread_id, REPORT);
      expect(editorOutput.toString("utf8")).toBe(EDITED);
      expect(await teams.artifactBytes(team.id, artifactId, 2)).toEqual(editorOutput);
      expect(v2?.sha256).toBe(sha256(editorOutput));
      // Version 1 is unchanged by the second registration.
      expect(await teams.artifactBytes(team.id, artifactId, 1)).toEqual(authorOutput);
      const delivery = (await teams.runEvents(editor.thread_id, String(editorView?.run_id))).find(
        (e) => e.event_type === "run.delivery",
      );
      expect(delivery?.content).toMatchObject({
        by_tool: { present_files: [REPORT] },
        satisfied: true,
      });
      handedOff = { team, artifactId };
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "fails a job whose copy would overwrite another file of that name, and runs nothing",
    async () => {
      if (handedOff === null) throw new Error("needs the hand-off above");
      const { team, artifactId } = handedOff;
      const author = team.members[0];
      if (author === undefined) throw new Error("Author expected");
      // The owner's own report.md sits in Author's uploads; the import must not replace it.
      const form = new FormData();
      form.append("files", new Blob(["my own notes\n"]), "report.md");
      const uploaded = await fetch(`${server.apiUrl}/threads/${author.thread_id}/uploads`, {
        method: "POST",
        body: form,
      });
      expect(uploaded.status).toBe(200);
      const job = await teams.action<{ id: string }>("send", {
        team_id: team.id,
        member_id: author.id,
        text: "Review the edited report.",
        request_id: "task-author-review",
        artifacts: [{ artifact_id: artifactId, version: 2 }],
      });
      const { job: view } = await teams.finishedJob(team.id, job.id);
      expect(view?.status).toBe("failed");
      expect(view?.error).toContain("artifact copy");
      expect(view?.run_id).toBeNull();
      expect((await outputFile(author.thread_id, UPLOADED)).toString("utf8")).toBe(
        "my own notes\n",
      );
      expect(await client.runs.list(author.thread_id)).toHaveLength(1);
    },
    TEST_TIMEOUT_MS,
  );
});
