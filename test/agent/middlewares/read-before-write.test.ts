import { appendFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { READ_MARK_KEY } from "../../../src/agent/middlewares/read-before-write/read-before-write-middleware.js";
import type { FawnPaths } from "../../../src/core/paths.js";
import { createTestAgent, type TestAgent } from "./harness.js";

let agent: TestAgent | undefined;
afterEach(async () => {
  await agent?.dispose();
  agent = undefined;
});

const THREAD = "t-rbw";
const NOTES = "/mnt/user-data/workspace/notes.md";
const scope = { userId: "default", threadId: THREAD };

/** Minimal file tools on the thread's host folders (what the sandboxes mount). */
function fileTools(paths: () => FawnPaths) {
  const host = (path: string) => paths().resolveVirtualPath(scope, path);
  const pathArg = z.object({ path: z.string() });
  return [
    tool(async ({ path }) => readFile(host(path), "utf8"), {
      name: "read_file",
      description: "read",
      schema: pathArg,
    }),
    tool(
      async ({ path, content }) => {
        await mkdir(dirname(host(path)), { recursive: true });
        await appendFile(host(path), content);
        return "OK";
      },
      {
        name: "write_file",
        description: "append",
        schema: pathArg.extend({ content: z.string() }),
      },
    ),
  ];
}

const write = (content: string, path = NOTES) => ({ name: "write_file", args: { path, content } });
const read = (path = NOTES) => ({ name: "read_file", args: { path } });

const SCRIPT = [
  {
    turns: [
      { tool_calls: [write("b")] },
      { tool_calls: [read()] },
      { tool_calls: [write("c")] },
      { tool_calls: [write("d")] },
      { tool_calls: [write("new", "/mnt/user-data/outputs/fresh.md")] },
      { content: "Done." },
    ],
  },
];

async function setUp(
  sections: Parameters<typeof createTestAgent>[0]["sections"],
): Promise<TestAgent> {
  let created: TestAgent | undefined;
  const test = await createTestAgent({
    script: SCRIPT,
    tools: fileTools(() => {
      if (!created) throw new Error("agent not ready");
      return created.paths;
    }),
    sections,
  });
  created = test;
  const notes = test.paths.resolveVirtualPath(scope, NOTES);
  await mkdir(dirname(notes), { recursive: true });
  await writeFile(notes, "a");
  return test;
}

const results = (messages: readonly unknown[]) =>
  messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));

describe("ReadBeforeWriteMiddleware", () => {
  it("on: a write to an unread existing file is refused; a read allows one write; a new file needs none", async () => {
    agent = await setUp({ read_before_write: { enabled: true } });
    const state = await agent.run(THREAD, "update the notes");
    const [blind, readResult, allowed, again, fresh] = results(state.messages);
    expect(blind?.status).toBe("error");
    expect(String(blind?.content)).toMatch(
      /^Error: write_file blocked — \/mnt\/user-data\/workspace\/notes\.md already exists and you have not read its current version/,
    );
    expect(readResult?.additional_kwargs[READ_MARK_KEY]).toMatchObject({ path: NOTES });
    expect(allowed?.content).toBe("OK");
    // The write changed the file, so the earlier read no longer counts.
    expect(again?.status).toBe("error");
    expect(fresh?.content).toBe("OK");
    expect(await readFile(agent.paths.resolveVirtualPath(scope, NOTES), "utf8")).toBe("ac");
    expect(agent.evidence.actions("read_before_write")).toEqual(["write_blocked", "write_blocked"]);
  });

  it("off (the default): every write goes through", async () => {
    agent = await setUp({});
    const state = await agent.run(THREAD, "update the notes");
    expect(results(state.messages).every((m) => m.status !== "error")).toBe(true);
    expect(await readFile(agent.paths.resolveVirtualPath(scope, NOTES), "utf8")).toBe("abcd");
  });
});
