/**
 * End to end through the real gateway with `sandbox.use: bwrap`: the server `fawn serve` builds,
 * driven by the LangGraph SDK. The offline demo model's task (a bash step, a report, present)
 * succeeds inside bubblewrap and its report downloads byte-identical; a scripted run proves the
 * tools run isolated (the thread's folders are there, the host's Fawn home, /etc/shadow and the
 * network are not); the artifact route serves only the owner's outputs. Fails in CI without
 * bubblewrap, skips loudly elsewhere.
 */
import { mkdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FawnPaths, type ThreadPaths } from "../../src/core/paths.js";
import { HeaderAuthProvider } from "../gateway/helpers/header-auth.js";
import { requireBwrap } from "../sandbox/helpers/require-bwrap.js";
import { type ServedGateway, startServedGateway } from "./helpers/served-gateway.js";

const bwrapWorks = await requireBwrap();

const REPORT = "/mnt/user-data/outputs/report.md";
const ALICE = { "x-test-user": "alice" };
const BOB = { "x-test-user": "bob" };

interface ApiEvent {
  event_type: string;
  content: unknown;
}

/** Runs one task to its end on a new thread and returns the thread and run ids. */
async function runTask(
  client: Client,
  text: string,
  modelName?: string,
): Promise<{ threadId: string; runId: string }> {
  const thread = await client.threads.create();
  const run = await client.runs.create(thread.thread_id, "lead_agent", {
    input: { messages: [{ role: "user", content: text }] },
    ...(modelName ? { config: { configurable: { model_name: modelName } } } : {}),
  });
  await client.runs.join(thread.thread_id, run.run_id);
  return { threadId: thread.thread_id, runId: run.run_id };
}

describe.runIf(bwrapWorks)("the lead agent's tools in bubblewrap, through the gateway", () => {
  let server: ServedGateway;
  let alice: Client;
  let paths: FawnPaths;

  beforeAll(async () => {
    server = await startServedGateway({
      auth: new HeaderAuthProvider(),
      config: (home) => ({
        sandbox: { use: "bwrap" },
        models: [
          { name: "demo", use: "demo", model: "demo" },
          {
            name: "isolation",
            use: "scripted",
            model: "isolation",
            script: join(home, "isolation.yaml"),
          },
        ],
      }),
    });
    alice = server.client(ALICE);
    paths = new FawnPaths(server.home);
    // The port is known only now; the scripted model reads its script when first used.
    await writeFile(join(server.home, "isolation.yaml"), isolationScript(server));
  });

  afterAll(async () => {
    await server?.close();
  });

  function threadPaths(threadId: string): ThreadPaths {
    return paths.threadPaths({ userId: "alice", threadId });
  }

  async function events(threadId: string, runId: string): Promise<ApiEvent[]> {
    const response = await fetch(`${server.apiUrl}/threads/${threadId}/runs/${runId}/events`, {
      headers: ALICE,
    });
    expect(response.status).toBe(200);
    return (await response.json()) as ApiEvent[];
  }

  function artifact(threadId: string, path: string, headers = ALICE): Promise<Response> {
    return fetch(`${server.apiUrl}/threads/${threadId}/artifacts/${path}`, { headers });
  }

  it("createFawn chose the bubblewrap provider", () => {
    expect(server.fawn.sandbox.kind).toBe("bwrap");
  });

  it("the demo task runs its bash step in the sandbox and its report downloads byte-identical", async () => {
    const { threadId, runId } = await runTask(alice, "Write me a short report");
    const run = await alice.runs.get(threadId, runId);
    expect(run.status).toBe("success");
    const types = (await events(threadId, runId)).map((event) => event.event_type);
    expect(types).toContain("llm.ai.response");
    expect(types).toContain("llm.tool.result");
    expect(types.filter((type) => type === "run.terminal")).toHaveLength(1);

    const state = await alice.threads.getState<{
      artifacts: string[];
      sandbox: { sandbox_id: string } | null;
      messages: Array<{ type: string; name?: string; content: unknown }>;
    }>(threadId);
    expect(state.values.artifacts).toEqual([REPORT]);
    expect(state.values.sandbox?.sandbox_id).toMatch(/^[0-9a-f]{16}$/);
    const bash = state.values.messages.find((m) => m.type === "tool" && m.name === "bash");
    expect(bash?.content).toMatch(
      /^count 25, sum 1060, mean 42\.4, median 41, twin pairs 8, widest gap 8\n0-9: 4\n/,
    );
    // The pipeline's working file landed in the thread's workspace on the host.
    expect(
      (await readFile(join(threadPaths(threadId).workspaceDir, "primes.txt"), "utf8")).split("\n"),
    ).toHaveLength(26);

    const response = await artifact(threadId, `mnt/user-data/outputs/report.md`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^inline; filename="report\.md"/);
    const downloaded = Buffer.from(await response.arrayBuffer());
    const onDisk = await readFile(join(threadPaths(threadId).outputsDir, "report.md"));
    expect(downloaded.equals(onDisk)).toBe(true);
    expect(downloaded.toString("utf8")).toMatch(/^# Prime numbers below 100/);
  });

  it("bash and the file tools run isolated: the thread's folders only, no host home, no network", async () => {
    const { threadId, runId } = await runTask(alice, "prove isolation", "isolation");
    expect((await alice.runs.get(threadId, runId)).status).toBe("success");
    const state = await alice.threads.getState<{
      artifacts: string[];
      messages: Array<{ type: string; name?: string; content: unknown }>;
    }>(threadId);
    const bashResults = state.values.messages
      .filter((m) => m.type === "tool" && m.name === "bash")
      .map((m) => String(m.content));
    expect(bashResults[0]).toBe(
      [
        "user-data: mounted",
        "workspace: /mnt/user-data/workspace",
        "fawn-home: hidden",
        "shadow: hidden",
        "network: blocked",
        "host write: refused",
        "pid 1 is the sandbox's own",
        "",
      ].join("\n"),
    );
    // write_file's file is what bash sees inside, at the same virtual path.
    expect(bashResults[1]).toBe("written by write_file\nnotes.md\nproof.txt\n");
    await expect(stat(join(server.home, "escape"))).rejects.toThrow();
    expect(state.values.artifacts).toEqual([
      "/mnt/user-data/outputs/proof.txt",
      "/mnt/user-data/outputs/notes.md",
    ]);
    const proof = await artifact(threadId, "mnt/user-data/outputs/proof.txt");
    expect(await proof.text()).toBe("isolated\n");
    const notes = await artifact(threadId, "mnt/user-data/outputs/notes.md");
    expect(await notes.text()).toBe("written by write_file\n");
  });

  describe("the artifact route", () => {
    let threadId = "";

    beforeAll(async () => {
      const thread = await alice.threads.create();
      threadId = thread.thread_id;
      const dirs = await paths.ensureThreadDirs({ userId: "alice", threadId });
      await writeFile(join(dirs.outputsDir, "page.html"), "<script>alert(1)</script>");
      await writeFile(join(dirs.outputsDir, "figure.svg"), "<svg/>");
      await mkdir(join(dirs.outputsDir, "sub dir"), { recursive: true });
      await writeFile(join(dirs.outputsDir, "sub dir", "résumé.txt"), "cv");
      await writeFile(join(dirs.workspaceDir, "scratch.txt"), "SCRATCH-CONTENT");
      await writeFile(join(dirs.uploadsDir, "upload.txt"), "UPLOAD-CONTENT");
      await symlink("/etc/passwd", join(dirs.outputsDir, "passwd-link"));
      await symlink(dirs.workspaceDir, join(dirs.outputsDir, "workspace-link"));
    });

    it("serves nested and non-ASCII names; active content and ?download=true are attachments", async () => {
      const nested = await artifact(
        threadId,
        "mnt/user-data/outputs/sub%20dir/r%C3%A9sum%C3%A9.txt",
      );
      expect(nested.status).toBe(200);
      expect(await nested.text()).toBe("cv");
      expect(nested.headers.get("content-disposition")).toBe(
        `inline; filename="r_sum_.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9.txt`,
      );
      for (const name of ["page.html", "figure.svg"]) {
        const response = await artifact(threadId, `mnt/user-data/outputs/${name}`);
        expect(response.status).toBe(200);
        expect(response.headers.get("content-disposition")).toMatch(/^attachment;/);
        expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      }
      const head = await fetch(
        `${server.apiUrl}/threads/${threadId}/artifacts/mnt/user-data/outputs/page.html`,
        {
          method: "HEAD",
          headers: ALICE,
        },
      );
      expect(head.status).toBe(200);
      expect(head.headers.get("content-length")).toBe("25");
      const download = await fetch(
        `${server.apiUrl}/threads/${threadId}/artifacts/mnt/user-data/outputs/sub%20dir/r%C3%A9sum%C3%A9.txt?download=true`,
        { headers: ALICE },
      );
      expect(download.headers.get("content-disposition")).toMatch(/^attachment;/);
    });

    it("serves the thread's uploads too (their artifact_url)", async () => {
      const response = await artifact(threadId, "mnt/user-data/uploads/upload.txt");
      expect(response.status).toBe(200);
      expect(await response.text()).toBe("UPLOAD-CONTENT");
    });

    it("404 for another user, for paths outside outputs and uploads, escapes and symlinks leading out", async () => {
      const refused = [
        "mnt/user-data/outputs/missing.txt",
        "mnt/user-data/outputs",
        "mnt/user-data/workspace/scratch.txt",
        "mnt/user-data/uploads",
        "mnt/user-data/uploads/%2e%2e/workspace/scratch.txt",
        "mnt/user-data/outputs/%2e%2e/workspace/scratch.txt",
        "mnt/user-data/outputs/..%2Fworkspace%2Fscratch.txt",
        "mnt/user-data/outputs/sub%20dir/%2e%2e/%2e%2e/workspace/scratch.txt",
        "mnt/user-data/outputs/passwd-link",
        "mnt/user-data/outputs/workspace-link/scratch.txt",
        "mnt/user-data/outputs/sub%20dir",
        "mnt/user-data/outputs/page.html%00.txt",
        "etc/passwd",
      ];
      for (const path of refused) {
        const response = await artifact(threadId, path);
        expect(response.status, path).toBe(404);
        expect(await response.text(), path).not.toMatch(/root:x|-CONTENT/);
      }
      expect((await artifact("bad.id", "mnt/user-data/outputs/page.html")).status).toBe(422);
      const foreign = await artifact(threadId, "mnt/user-data/outputs/page.html", BOB);
      expect(foreign.status).toBe(404);
      const anonymous = await fetch(
        `${server.apiUrl}/threads/${threadId}/artifacts/mnt/user-data/outputs/page.html`,
      );
      expect(anonymous.status).toBe(401);
    });
  });
});

/**
 * The isolation run: bash reports what it can see from inside, write_file writes a note that bash
 * then reads at the same virtual path, and both outputs are presented.
 */
function isolationScript(server: ServedGateway): string {
  const probe = [
    `test -d /mnt/user-data/outputs && echo "user-data: mounted"`,
    `echo "workspace: $(pwd)"`,
    `test -e '${server.home}' && echo "fawn-home: VISIBLE" || echo "fawn-home: hidden"`,
    `test -r /etc/shadow && echo "shadow: VISIBLE" || echo "shadow: hidden"`,
    `(exec 3<>/dev/tcp/127.0.0.1/${server.port}) 2>/dev/null && echo "network: OPEN" || echo "network: blocked"`,
    `touch '${server.home}/escape' 2>/dev/null && echo "host write: DONE" || echo "host write: refused"`,
    `test "$(cat /proc/1/comm 2>/dev/null)" != node && echo "pid 1 is the sandbox's own"`,
    `echo isolated > /mnt/user-data/outputs/proof.txt`,
  ].join("\n");
  const rules = [
    {
      match: "isolation",
      turns: [
        { tool_calls: [{ name: "bash", args: { description: "look around", command: probe } }] },
        {
          tool_calls: [
            {
              name: "write_file",
              args: {
                description: "a note",
                path: "/mnt/user-data/outputs/notes.md",
                content: "written by write_file\n",
              },
            },
          ],
        },
        {
          tool_calls: [
            {
              name: "bash",
              args: {
                description: "read it back",
                command: "cat /mnt/user-data/outputs/notes.md && ls /mnt/user-data/outputs",
              },
            },
          ],
        },
        {
          tool_calls: [
            {
              name: "present_files",
              args: {
                filepaths: ["/mnt/user-data/outputs/proof.txt", "/mnt/user-data/outputs/notes.md"],
              },
            },
          ],
        },
        { content: "Isolation proven." },
      ],
    },
  ];
  return JSON.stringify(rules);
}
