/**
 * A hard link the agent makes in its outputs folder to a file outside the thread (local provider,
 * host bash allowed) is not the thread's file: `present_files` refuses it and the artifact route
 * answers 404 as for any other path that leads out, while a file the agent wrote is presented and
 * served as usual. Through the served gateway, a scripted model and real HTTP.
 */
import { link, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FawnPaths } from "../../src/core/paths.js";
import { type ServedGateway, startServedGateway } from "../e2e/helpers/served-gateway.js";

const SECRET = "HOST-SECRET-4c1d\n";
const OUT = "/mnt/user-data/outputs";

interface ThreadValues {
  artifacts?: string[];
  messages: Array<{ type: string; name?: string; content: unknown }>;
}

describe("hard links in a thread's outputs", () => {
  let server: ServedGateway;
  let outside = "";
  let secretPath = "";

  beforeAll(async () => {
    outside = await mkdtemp(join(tmpdir(), "fawn-hardlink-outside-"));
    secretPath = join(outside, "host-secret.txt");
    await writeFile(secretPath, SECRET);
    server = await startServedGateway({
      config: (home) => ({
        sandbox: { use: "local", allow_host_bash: true },
        models: [
          { name: "linker", use: "scripted", model: "linker", script: join(home, "s.json") },
        ],
      }),
    });
    // The local command gate refuses absolute host paths in a command, not what it computes.
    const source = `"$(printf '\\057%s' '${secretPath.slice(1)}')"`;
    const script = [
      {
        turns: [
          {
            tool_calls: [
              {
                name: "bash",
                args: {
                  description: "link a host file, write a report",
                  command: `ln ${source} ${OUT}/linked.txt && printf 'mine\\n' > ${OUT}/report.txt`,
                },
              },
            ],
          },
          { tool_calls: [{ name: "present_files", args: { filepaths: [`${OUT}/linked.txt`] } }] },
          { tool_calls: [{ name: "present_files", args: { filepaths: [`${OUT}/report.txt`] } }] },
          { content: "done" },
        ],
      },
    ];
    await writeFile(join(server.home, "s.json"), JSON.stringify(script));
  });

  afterAll(async () => {
    await server?.close();
    if (outside) await rm(outside, { recursive: true, force: true });
  });

  it("present_files and the artifact route refuse the link, and serve the agent's own file", async () => {
    const client = server.client();
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, "lead_agent", {
      input: { messages: [{ role: "user", content: "make the files" }] },
    });
    await client.runs.join(thread.thread_id, run.run_id);
    expect((await client.runs.get(thread.thread_id, run.run_id)).status).toBe("success");

    // The agent really made the link: the thread's file is the host file.
    const outputs = new FawnPaths(server.home).threadPaths({
      userId: "default",
      threadId: thread.thread_id,
    }).outputsDir;
    const [linked, secret] = await Promise.all([
      stat(join(outputs, "linked.txt")),
      stat(secretPath),
    ]);
    expect(linked.ino).toBe(secret.ino);

    const state = await client.threads.getState<ThreadValues>(thread.thread_id);
    const presented = state.values.messages
      .filter((m) => m.type === "tool" && m.name === "present_files")
      .map((m) => String(m.content));
    expect(presented[0]).toMatch(/^Error: .*\/mnt\/user-data\/outputs\/linked\.txt/);
    expect(presented[0]).not.toContain(SECRET.trim());
    expect(presented[1]).toBe("Successfully presented files");
    expect(state.values.artifacts).toEqual([`${OUT}/report.txt`]);

    const artifact = (name: string) =>
      fetch(`${server.apiUrl}/threads/${thread.thread_id}/artifacts/mnt/user-data/outputs/${name}`);
    const refused = await artifact("linked.txt");
    expect(refused.status).toBe(404);
    const body = await refused.text();
    expect(body).not.toContain(SECRET.trim());
    expect(JSON.parse(body)).toMatchObject({ code: "not_found" });
    const served = await artifact("report.txt");
    expect(served.status).toBe(200);
    expect(await served.text()).toBe("mine\n");
  });

  it("a link made on the host side (uploads too) is refused the same way", async () => {
    const client = server.client();
    const thread = await client.threads.create();
    const dirs = await new FawnPaths(server.home).ensureThreadDirs({
      userId: "default",
      threadId: thread.thread_id,
    });
    await link(secretPath, join(dirs.uploadsDir, "linked.txt"));
    await writeFile(join(dirs.uploadsDir, "plain.txt"), "plain");
    const base = `${server.apiUrl}/threads/${thread.thread_id}/artifacts/mnt/user-data/uploads`;
    const refused = await fetch(`${base}/linked.txt`);
    expect(refused.status).toBe(404);
    expect(await refused.text()).not.toContain(SECRET.trim());
    const head = await fetch(`${base}/linked.txt`, { method: "HEAD" });
    expect(head.status).toBe(404);
    const plain = await fetch(`${base}/plain.txt`);
    expect(await plain.text()).toBe("plain");
  });
});
