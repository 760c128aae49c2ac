/**
 * `write_file` and `present_files` on a thread's folders under a temporary FAWN_HOME: what they
 * write, what they refuse (paths outside the thread, `..`, symlinks leading out), and that they
 * answer with `Error:` strings instead of throwing.
 */
import { mkdir, mkdtemp, readFile, readlink, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ToolMessage } from "@langchain/core/messages";
import { isCommand } from "@langchain/langgraph";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPresentFilesTool } from "../../src/agent/tools/present-files.js";
import { createWriteFileTool } from "../../src/agent/tools/write-file.js";
import { FawnPaths, type ThreadPaths } from "../../src/core/paths.js";
import { withBlockingIoGate } from "../helpers/blocking-io-gate.js";

const scope = { userId: "alice", threadId: "thread-1" };
const config = { configurable: { thread_id: scope.threadId, user_id: scope.userId } };

let home: string;
let outside: string;
let paths: FawnPaths;
let thread: ThreadPaths;
let writeTool: ReturnType<typeof createWriteFileTool>;
let presentTool: ReturnType<typeof createPresentFilesTool>;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "fawn-tools-"));
  outside = await mkdtemp(join(tmpdir(), "fawn-outside-"));
  paths = new FawnPaths(home);
  thread = await paths.ensureThreadDirs(scope);
  writeTool = createWriteFileTool({ paths, maxBytes: 1024 });
  presentTool = createPresentFilesTool({ paths });
});

afterEach(async () => {
  await rm(home, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

function write(path: string, content = "hello", append = false): Promise<string> {
  return writeTool.invoke({ description: "test", path, content, append }, config);
}

async function present(filepaths: string[]): Promise<unknown> {
  return presentTool.invoke(
    { name: "present_files", args: { filepaths }, id: "call-1", type: "tool_call" },
    config,
  );
}

describe("write_file", () => {
  it("writes into the thread's folders, creating parents; append adds", async () => {
    await withBlockingIoGate(async () => {
      expect(await write("/mnt/user-data/outputs/reports/q1.md", "# Q1\n")).toBe("OK");
      expect(await write("/mnt/user-data/outputs/reports/q1.md", "more\n", true)).toBe("OK");
      expect(await write("/mnt/user-data/workspace/notes.txt")).toBe("OK");
    });
    expect(await readFile(join(thread.outputsDir, "reports/q1.md"), "utf8")).toBe("# Q1\nmore\n");
    expect(await readFile(join(thread.workspaceDir, "notes.txt"), "utf8")).toBe("hello");
  });

  it("replaces a file whole", async () => {
    await write("/mnt/user-data/outputs/a.txt", "first version");
    await write("/mnt/user-data/outputs/a.txt", "second");
    expect(await readFile(join(thread.outputsDir, "a.txt"), "utf8")).toBe("second");
  });

  it("refuses one whole-file write over the size limit, but not appends", async () => {
    const big = "x".repeat(2000);
    expect(await write("/mnt/user-data/outputs/big.txt", big)).toMatch(
      /^Error: Content too large .*append=true/,
    );
    expect(await write("/mnt/user-data/outputs/big.txt", big, true)).toBe("OK");
  });

  it.each([
    ["relative", "report.md", /Only paths under/],
    ["outside user data", "/etc/passwd", /Only paths under/],
    ["prefix trick", "/mnt/user-dataX/outputs/a.md", /Only paths under/],
    ["user-data root", "/mnt/user-data/a.md", /Only paths under/],
    ["unknown folder", "/mnt/user-data/secrets/a.md", /Only paths under/],
    ["a folder, not a file", "/mnt/user-data/outputs", /Only paths under/],
    ["dot-dot", "/mnt/user-data/outputs/../../../../etc/x", /Permission denied/],
    ["dot-dot inside", "/mnt/user-data/outputs/a/../b.md", /Permission denied/],
    ["backslash dot-dot", "/mnt/user-data/outputs/..\\..\\x", /Permission denied/],
    ["NUL", "/mnt/user-data/outputs/a\0.md", /Permission denied/],
  ])("refuses %s (%s) with an Error string", async (_name, path, pattern) => {
    const answer = await write(path);
    expect(answer).toMatch(/^Error: /);
    expect(answer).toMatch(pattern);
    expect(answer).toContain(path);
  });

  it("refuses a parent folder that symlinks out of the thread, creating nothing outside", async () => {
    await symlink(outside, join(thread.workspaceDir, "escape"));
    expect(await write("/mnt/user-data/workspace/escape/new/file.txt")).toMatch(
      /^Error: Permission denied/,
    );
    expect(await write("/mnt/user-data/workspace/escape/file.txt")).toMatch(/Permission denied/);
    await expect(readFile(join(outside, "file.txt"))).rejects.toThrow();
    await expect(readlink(join(thread.workspaceDir, "escape"))).resolves.toBe(outside);
  });

  it("a symlinked file is replaced by a real file, never written through; append refuses it", async () => {
    const victim = join(outside, "victim.txt");
    await writeFile(victim, "untouched");
    await symlink(victim, join(thread.outputsDir, "link.txt"));
    expect(await write("/mnt/user-data/outputs/link.txt", "x", true)).toMatch(/^Error: Failed/);
    expect(await write("/mnt/user-data/outputs/link.txt", "replaced")).toBe("OK");
    expect(await readFile(victim, "utf8")).toBe("untouched");
    expect(await readFile(join(thread.outputsDir, "link.txt"), "utf8")).toBe("replaced");
  });

  it("stays inside the calling user's thread", async () => {
    await write("/mnt/user-data/outputs/mine.txt");
    const other = paths.threadPaths({ userId: "bob", threadId: scope.threadId });
    await expect(readFile(join(other.outputsDir, "mine.txt"))).rejects.toThrow();
  });

  it("without a thread in the config the tool fails (the tools step turns that into a message)", async () => {
    await expect(
      writeTool.invoke({ description: "d", path: "/mnt/user-data/outputs/a", content: "" }, {}),
    ).resolves.toMatch(/Thread ID not available/);
  });
});

describe("present_files", () => {
  beforeEach(async () => {
    await mkdir(join(thread.outputsDir, "sub"), { recursive: true });
    await writeFile(join(thread.outputsDir, "report.md"), "# r");
    await writeFile(join(thread.outputsDir, "sub", "data.csv"), "a,b");
  });

  it("adds virtual paths to artifacts through a Command with its ToolMessage", async () => {
    const output = await withBlockingIoGate(() =>
      present([
        "/mnt/user-data/outputs/report.md",
        join(thread.outputsDir, "sub", "data.csv"),
        "/mnt/user-data/outputs/report.md",
      ]),
    );
    expect(isCommand(output)).toBe(true);
    if (!isCommand(output)) return;
    const update = output.update as { artifacts: string[]; messages: ToolMessage[] };
    expect(update.artifacts).toEqual([
      "/mnt/user-data/outputs/report.md",
      "/mnt/user-data/outputs/sub/data.csv",
    ]);
    expect(update.messages[0]).toBeInstanceOf(ToolMessage);
    expect(update.messages[0]?.tool_call_id).toBe("call-1");
    expect(update.messages[0]?.content).toBe("Successfully presented files");
  });

  it.each([
    [
      "a workspace file",
      "/mnt/user-data/workspace/notes.txt",
      /Only files in \/mnt\/user-data\/outputs/,
    ],
    ["a host path outside outputs", "/etc/hosts", /Only files in \/mnt\/user-data\/outputs/],
    ["dot-dot", "/mnt/user-data/outputs/../workspace/x", /Permission denied/],
    ["a missing file", "/mnt/user-data/outputs/nope.md", /File not found/],
    ["a folder", "/mnt/user-data/outputs/sub", /File not found/],
  ])("rejects %s, and with it the whole call", async (_name, bad, pattern) => {
    const output = await present(["/mnt/user-data/outputs/report.md", bad]);
    expect(isCommand(output)).toBe(false);
    const text = output instanceof ToolMessage ? String(output.content) : String(output);
    expect(text).toMatch(/^Error: /);
    expect(text).toMatch(pattern);
  });

  it("rejects a file that symlinks out of the outputs folder", async () => {
    await writeFile(join(outside, "secret.txt"), "s");
    await symlink(join(outside, "secret.txt"), join(thread.outputsDir, "leak.txt"));
    const output = await present(["/mnt/user-data/outputs/leak.txt"]);
    const text = output instanceof ToolMessage ? String(output.content) : String(output);
    expect(text).toMatch(/^Error: Permission denied/);
  });
});
