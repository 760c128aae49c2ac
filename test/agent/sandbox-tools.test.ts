/**
 * The lead agent's sandbox tools (bash, ls, read_file, write_file, str_replace, glob, grep) against
 * the real local and bubblewrap providers: happy paths, limits, the reference's error wording,
 * path escapes refused, per-user isolation, the sandbox id recorded in thread state, and
 * cancellation. The bwrap half fails in CI without bubblewrap and skips loudly elsewhere.
 */
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HumanMessage, ToolMessage } from "@langchain/core/messages";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { isCommand } from "@langchain/langgraph";
import { MemorySaver } from "@langchain/langgraph-checkpoint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLeadAgent } from "../../src/agent/lead-agent/create-lead-agent.js";
import { parseScript } from "../../src/agent/scripted/script-schema.js";
import { ScriptedChatModel } from "../../src/agent/scripted/scripted-chat-model.js";
import { createSandboxTools } from "../../src/agent/tools/sandbox/create-sandbox-tools.js";
import {
  DEFAULT_SANDBOX_TOOL_SETTINGS,
  type SandboxToolSettings,
} from "../../src/agent/tools/sandbox/sandbox-tool-settings.js";
import { sandboxConfigSchema } from "../../src/core/config/schema.js";
import { FawnPaths, type ThreadPaths, type ThreadScope } from "../../src/core/paths.js";
import { createSandboxProvider, type SandboxProvider } from "../../src/sandbox/index.js";
import { withBlockingIoGate } from "../helpers/blocking-io-gate.js";
import { requireBwrap } from "../sandbox/helpers/require-bwrap.js";

const bwrapWorks = await requireBwrap();

const ALICE: ThreadScope = { userId: "alice", threadId: "thread-a" };
const BOB: ThreadScope = { userId: "bob", threadId: "thread-b" };

const SETTINGS: SandboxToolSettings = {
  ...DEFAULT_SANDBOX_TOOL_SETTINGS,
  bashTimeoutMs: 1_500,
  bashOutputMaxChars: 300,
  readFileOutputMaxChars: 400,
  lsOutputMaxChars: 300,
  globMaxResults: 3,
  writeFileMaxBytes: 1024,
};

type Kind = "local" | "bwrap";
const KINDS: Kind[] = bwrapWorks ? ["local", "bwrap"] : ["local"];

function configOf(scope: ThreadScope, extra: Record<string, unknown> = {}) {
  return { configurable: { thread_id: scope.threadId, user_id: scope.userId, ...extra } };
}

describe.each(KINDS)("sandbox tools on the %s provider", (kind) => {
  let home: string;
  let paths: FawnPaths;
  let provider: SandboxProvider;
  let tools: Map<string, StructuredToolInterface>;
  let alice: ThreadPaths;

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), `fawn-sandbox-tools-${kind}-`));
    paths = new FawnPaths(home);
    provider = await createSandboxProvider({
      config: sandboxConfigSchema.parse({ use: kind, allow_host_bash: true }),
      paths,
      skillsDir: null,
    });
    tools = new Map(
      createSandboxTools({ provider, paths, settings: SETTINGS }).map((t) => [t.name, t]),
    );
    alice = await paths.ensureThreadDirs(ALICE);
  });

  afterAll(async () => {
    await provider.shutdown();
    await rm(home, { recursive: true, force: true });
  });

  /** Invokes a tool as the model would, for `scope`; plain text comes back without a tool call. */
  async function call(
    name: string,
    args: Record<string, unknown>,
    scope: ThreadScope = ALICE,
  ): Promise<string> {
    const found = tools.get(name);
    if (!found) throw new Error(`no tool ${name}`);
    const output: unknown = await found.invoke({ description: "test", ...args }, configOf(scope));
    if (typeof output !== "string") throw new Error(`${name} returned ${typeof output}`);
    return output;
  }

  describe("bash", () => {
    it("runs in the workspace; stdout, stderr and the exit code read like the reference", async () => {
      expect(await call("bash", { command: "echo hello && pwd" })).toBe(
        "hello\n/mnt/user-data/workspace\n",
      );
      expect(await call("bash", { command: "echo out; echo err >&2; exit 3" })).toBe(
        "out\n\nStd Error:\nerr\n\nExit Code: 3",
      );
      expect(await call("bash", { command: "true" })).toBe("(no output)");
    });

    it("shares files with the file tools through /mnt/user-data", async () => {
      expect(
        await call("bash", {
          command: "printf 'from bash\\n' > /mnt/user-data/outputs/b.txt",
        }),
      ).toBe("(no output)");
      expect(await call("read_file", { path: "/mnt/user-data/outputs/b.txt" })).toBe("from bash\n");
      expect(await readFile(join(alice.outputsDir, "b.txt"), "utf8")).toBe("from bash\n");
    });

    it("caps output by middle truncation and kills a command at the timeout", async () => {
      const long = await call("bash", { command: "seq 1 5000" });
      expect(long.length).toBeLessThanOrEqual(SETTINGS.bashOutputMaxChars);
      expect(long).toMatch(/^1\n2\n3\n/);
      expect(long).toMatch(/\.\.\. \[middle truncated: \d+ chars skipped\] \.\.\./);
      expect(long).toMatch(/5000\n$/);
      const slow = await call("bash", { command: "echo started; sleep 20; echo never" });
      expect(slow).toMatch(/^started\n/);
      expect(slow).toContain("timed out");
      expect(slow).not.toContain("never");
    });

    it("a cancelled run stops the command and the tool throws instead of answering", async () => {
      const controller = new AbortController();
      const bash = tools.get("bash");
      if (!bash) throw new Error("no bash");
      const pending = bash.invoke(
        { description: "test", command: "sleep 20" },
        { ...configOf(ALICE), signal: controller.signal },
      );
      setTimeout(() => controller.abort(new Error("run cancelled")), 200);
      await expect(pending).rejects.toThrow();
    });
  });

  describe("ls", () => {
    it("lists two levels, children first, folders with '/', noise left out", async () => {
      await mkdir(join(alice.workspaceDir, "ls/sub/deep"), { recursive: true });
      await mkdir(join(alice.workspaceDir, "ls/.git"), { recursive: true });
      await writeFile(join(alice.workspaceDir, "ls/a.txt"), "a");
      await writeFile(join(alice.workspaceDir, "ls/sub/b.txt"), "b");
      await writeFile(join(alice.workspaceDir, "ls/sub/deep/c.txt"), "c");
      expect(await call("ls", { path: "/mnt/user-data/workspace/ls" })).toBe(
        [
          "/mnt/user-data/workspace/ls/a.txt",
          "/mnt/user-data/workspace/ls/sub/",
          "/mnt/user-data/workspace/ls/sub/b.txt",
          "/mnt/user-data/workspace/ls/sub/deep/",
        ].join("\n"),
      );
    });

    it("(empty), missing folder, file instead of folder, head truncation", async () => {
      await mkdir(join(alice.workspaceDir, "empty"), { recursive: true });
      expect(await call("ls", { path: "/mnt/user-data/workspace/empty" })).toBe("(empty)");
      expect(await call("ls", { path: "/mnt/user-data/workspace/nope" })).toBe(
        "Error: Directory not found: /mnt/user-data/workspace/nope",
      );
      await writeFile(join(alice.workspaceDir, "plain.txt"), "x");
      expect(await call("ls", { path: "/mnt/user-data/workspace/plain.txt" })).toBe(
        "Error: Path is not a directory: /mnt/user-data/workspace/plain.txt",
      );
      await mkdir(join(alice.workspaceDir, "many"), { recursive: true });
      for (let i = 0; i < 40; i += 1) {
        await writeFile(join(alice.workspaceDir, "many", `file-${String(i).padStart(2, "0")}`), "");
      }
      const listing = await call("ls", { path: "/mnt/user-data/workspace/many" });
      expect(listing.length).toBeLessThanOrEqual(SETTINGS.lsOutputMaxChars);
      expect(listing).toMatch(/^\/mnt\/user-data\/workspace\/many\/file-00\n/);
      expect(listing).toContain("listing truncated");
    });
  });

  describe("read_file", () => {
    beforeAll(async () => {
      await writeFile(join(alice.workspaceDir, "lines.txt"), "one\ntwo\nthree\nfour\n");
      await writeFile(join(alice.workspaceDir, "empty.txt"), "");
      await writeFile(
        join(alice.workspaceDir, "binary.bin"),
        Buffer.from([0xff, 0xfe, 0x00, 0x80]),
      );
      await writeFile(join(alice.workspaceDir, "big.txt"), "x".repeat(2000));
    });

    it("whole files and 1-based inclusive ranges", async () => {
      const path = "/mnt/user-data/workspace/lines.txt";
      expect(await call("read_file", { path })).toBe("one\ntwo\nthree\nfour\n");
      expect(await call("read_file", { path, start_line: 2, end_line: 3 })).toBe("two\nthree");
      expect(await call("read_file", { path, start_line: 4 })).toBe("four");
      expect(await call("read_file", { path, end_line: 1 })).toBe("one");
      expect(await call("read_file", { path, start_line: 3, end_line: 99 })).toBe("three\nfour");
    });

    it("the reference's validation texts, (empty), not found, not text", async () => {
      const path = "/mnt/user-data/workspace/lines.txt";
      expect(await call("read_file", { path, start_line: 0 })).toContain(
        "(start_line must be >= 1)",
      );
      expect(await call("read_file", { path, end_line: 0 })).toContain("(end_line must be >= 1)");
      expect(await call("read_file", { path, start_line: 3, end_line: 2 })).toContain(
        "(start_line > end_line — no lines in range)",
      );
      expect(await call("read_file", { path, start_line: 5 })).toContain(
        "(start_line exceeds file length)",
      );
      expect(await call("read_file", { path: "/mnt/user-data/workspace/empty.txt" })).toBe(
        "(empty)",
      );
      expect(await call("read_file", { path: "/mnt/user-data/workspace/none.txt" })).toBe(
        "Error: File not found: /mnt/user-data/workspace/none.txt",
      );
      const binary = await call("read_file", { path: "/mnt/user-data/workspace/binary.bin" });
      expect(binary).toMatch(
        /^Error: File is not UTF-8 text: \/mnt\/user-data\/workspace\/binary\.bin/,
      );
      expect(binary).toContain("view_image");
    });

    it("head-truncates with a note about start_line/end_line", async () => {
      const text = await call("read_file", { path: "/mnt/user-data/workspace/big.txt" });
      expect(text.length).toBeLessThanOrEqual(SETTINGS.readFileOutputMaxChars);
      expect(text).toMatch(/^x+\n\.\.\. \[output truncated: 2000 chars in all/);
      expect(text).toContain("start_line and end_line");
    });
  });

  describe("write_file and str_replace", () => {
    it("writes (creating parents), appends, and refuses one oversized write", async () => {
      const path = "/mnt/user-data/outputs/nested/dir/report.md";
      expect(await call("write_file", { path, content: "# Report\n" })).toBe("OK");
      expect(await call("write_file", { path, content: "more\n", append: true })).toBe("OK");
      expect(await readFile(join(alice.outputsDir, "nested/dir/report.md"), "utf8")).toBe(
        "# Report\nmore\n",
      );
      const tooBig = await call("write_file", { path, content: "y".repeat(2000) });
      expect(tooBig).toBe(
        "Error: Content too large for one write_file call (2000 bytes; the limit is 1024). " +
          "Write a first section, then add the rest with append=true or str_replace.",
      );
      // Appending is how big files are built, so the cap does not apply to it.
      expect(await call("write_file", { path, content: "z".repeat(2000), append: true })).toBe(
        "OK",
      );
    });

    it("uploads are read-only for the agent", async () => {
      const refused = await call("write_file", {
        path: "/mnt/user-data/uploads/x.txt",
        content: "x",
      });
      expect(refused).toMatch(/^Error: Read-only file system: \/mnt\/user-data\/uploads\/x\.txt/);
    });

    it("str_replace: first or every occurrence, empty old_str is a no-op, absent text is an error", async () => {
      const path = "/mnt/user-data/workspace/edit.txt";
      await writeFile(join(alice.workspaceDir, "edit.txt"), "a-a-a");
      expect(await call("str_replace", { path, old_str: "a", new_str: "b" })).toBe("OK");
      expect(await readFile(join(alice.workspaceDir, "edit.txt"), "utf8")).toBe("b-a-a");
      expect(
        await call("str_replace", { path, old_str: "a", new_str: "c", replace_all: true }),
      ).toBe("OK");
      expect(await readFile(join(alice.workspaceDir, "edit.txt"), "utf8")).toBe("b-c-c");
      expect(await call("str_replace", { path, old_str: "", new_str: "q" })).toBe("OK");
      expect(await readFile(join(alice.workspaceDir, "edit.txt"), "utf8")).toBe("b-c-c");
      expect(await call("str_replace", { path, old_str: "zzz", new_str: "q" })).toBe(
        `Error: String to replace not found in file: ${path}`,
      );
      expect(
        await call("str_replace", {
          path: "/mnt/user-data/workspace/missing.txt",
          old_str: "a",
          new_str: "b",
        }),
      ).toBe("Error: File not found: /mnt/user-data/workspace/missing.txt");
    });
  });

  describe("glob and grep", () => {
    beforeAll(async () => {
      await mkdir(join(alice.workspaceDir, "src/lib"), { recursive: true });
      for (const name of ["a.ts", "b.ts", "c.ts", "d.ts"]) {
        await writeFile(
          join(alice.workspaceDir, "src/lib", name),
          `export const ${name[0]} = 1;\n`,
        );
      }
      await writeFile(join(alice.workspaceDir, "src/readme.md"), "Hello World\nhello again\n");
    });

    it("glob: numbered paths, the configured cap wins over a larger request", async () => {
      const root = "/mnt/user-data/workspace/src";
      expect(await call("glob", { path: root, pattern: "**/*.md" })).toBe(
        `Found 1 paths under ${root}\n1. ${root}/readme.md`,
      );
      const capped = await call("glob", { path: root, pattern: "**/*.ts", max_results: 50 });
      expect(capped.split("\n")[0]).toBe(`Found 3 paths under ${root} (showing first 3)`);
      expect(capped).toContain(`1. ${root}/lib/a.ts`);
      expect(capped).toContain("Results truncated");
      const fewer = await call("glob", { path: root, pattern: "**/*.ts", max_results: 2 });
      expect(fewer.split("\n")[0]).toBe(`Found 2 paths under ${root} (showing first 2)`);
      expect(await call("glob", { path: root, pattern: "**/*.rs" })).toBe(
        `No files matched under ${root}`,
      );
      expect(await call("glob", { path: root, pattern: "*", include_dirs: true })).toContain(
        `${root}/lib`,
      );
    });

    it("grep: path:line: text, case, literal, glob filter, limits, bad regex", async () => {
      const root = "/mnt/user-data/workspace/src";
      expect(await call("grep", { path: root, pattern: "hello" })).toBe(
        `Found 2 matches under ${root}\n${root}/readme.md:1: Hello World\n${root}/readme.md:2: hello again`,
      );
      expect(await call("grep", { path: root, pattern: "Hello", case_sensitive: true })).toBe(
        `Found 1 matches under ${root}\n${root}/readme.md:1: Hello World`,
      );
      expect(await call("grep", { path: root, pattern: "a = 1;", literal: true })).toBe(
        `Found 1 matches under ${root}\n${root}/lib/a.ts:1: export const a = 1;`,
      );
      const limited = await call("grep", { path: root, pattern: "export", max_results: 2 });
      expect(limited.split("\n")[0]).toBe(`Found 2 matches under ${root} (showing first 2)`);
      expect(await call("grep", { path: root, pattern: "export", glob: "**/*.md" })).toBe(
        `No matches found under ${root}`,
      );
      expect(await call("grep", { path: root, pattern: "(" })).toMatch(
        /^Error: Invalid regex pattern: /,
      );
    });
  });

  describe("paths the model may not use", () => {
    const escapes: Array<[string, string]> = [
      ["/mnt/user-data/workspace/../../../etc/passwd", "Error: Permission denied: "],
      ["/mnt/user-data/workspace/%2e%2e/x\0", "Error: Permission denied: "],
      [
        "/etc/passwd",
        "Error: Only paths under /mnt/user-data/, /mnt/skills/, or configured mount paths are allowed: ",
      ],
      [
        "/mnt/user-dataX/x",
        "Error: Only paths under /mnt/user-data/, /mnt/skills/, or configured mount paths are allowed: ",
      ],
      [
        "notes.txt",
        "Error: Only paths under /mnt/user-data/, /mnt/skills/, or configured mount paths are allowed: ",
      ],
    ];

    it.each(escapes)(
      "%s is refused by every file tool, echoing the path given",
      async (path, prefix) => {
        const calls: Array<[string, Record<string, unknown>]> = [
          ["ls", { path }],
          ["read_file", { path }],
          ["write_file", { path, content: "x" }],
          ["str_replace", { path, old_str: "a", new_str: "b" }],
          ["glob", { path, pattern: "*" }],
          ["grep", { path, pattern: "x" }],
        ];
        for (const [name, args] of calls) {
          expect(await call(name, args), name).toBe(`${prefix}${path}`);
        }
      },
    );

    it("symlinks leading out of the thread are not followed", async () => {
      const outside = await mkdtemp(join(tmpdir(), "fawn-outside-"));
      try {
        await writeFile(join(outside, "secret.txt"), "secret");
        await symlink(join(outside, "secret.txt"), join(alice.workspaceDir, "link.txt"));
        await symlink(outside, join(alice.workspaceDir, "linkdir"));
        for (const [name, args] of [
          ["read_file", { path: "/mnt/user-data/workspace/link.txt" }],
          ["write_file", { path: "/mnt/user-data/workspace/link.txt", content: "x" }],
          ["write_file", { path: "/mnt/user-data/workspace/linkdir/new.txt", content: "x" }],
          ["ls", { path: "/mnt/user-data/workspace/linkdir" }],
        ] as const) {
          expect(await call(name, args), name).toMatch(/^Error: Permission denied: /);
        }
        expect(await readFile(join(outside, "secret.txt"), "utf8")).toBe("secret");
      } finally {
        await rm(outside, { recursive: true, force: true });
      }
    });

    it("one user's thread never sees another's files", async () => {
      expect(
        await call("write_file", { path: "/mnt/user-data/outputs/mine.txt", content: "alice" }),
      ).toBe("OK");
      expect(await call("read_file", { path: "/mnt/user-data/outputs/mine.txt" }, BOB)).toBe(
        "Error: File not found: /mnt/user-data/outputs/mine.txt",
      );
      if (kind === "bwrap") {
        const seen = await call("bash", { command: `cat ${alice.outputsDir}/mine.txt` }, BOB);
        expect(seen).toContain("No such file or directory");
        expect(seen).not.toMatch(/^alice/);
      }
    });

    it("a sandbox id planted in thread state does not open another thread's sandbox", async () => {
      const bobsId = await provider.acquire(BOB.threadId, BOB.userId);
      const write = tools.get("write_file");
      if (!write) throw new Error("no write_file");
      const planted = configOf(ALICE, {
        __pregel_scratchpad: { currentTaskInput: { sandbox: { sandbox_id: bobsId } } },
      });
      await write.invoke(
        { description: "test", path: "/mnt/user-data/workspace/planted.txt", content: "x" },
        planted,
      );
      expect(await readFile(join(alice.workspaceDir, "planted.txt"), "utf8")).toBe("x");
      const bob = paths.threadPaths(BOB);
      await expect(readFile(join(bob.workspaceDir, "planted.txt"), "utf8")).rejects.toThrow();
    });
  });

  it("file tools do no blocking IO on the event loop", async () => {
    await withBlockingIoGate(async () => {
      expect(
        await call("write_file", { path: "/mnt/user-data/workspace/g.txt", content: "g" }),
      ).toBe("OK");
      expect(await call("read_file", { path: "/mnt/user-data/workspace/g.txt" })).toBe("g");
      expect(await call("ls", { path: "/mnt/user-data/workspace" })).toContain("g.txt");
      expect(await call("grep", { path: "/mnt/user-data/workspace", pattern: "^g$" })).toContain(
        "g.txt:1: g",
      );
      expect(await call("bash", { command: "cat g.txt" })).toBe("g");
    });
  });

  it("a tool call records the thread's sandbox id in the graph state", async () => {
    const script = parseScript(
      [
        {
          turns: [
            { tool_calls: [{ name: "bash", args: { description: "d", command: "echo hi" } }] },
            {
              tool_calls: [
                { name: "ls", args: { description: "d", path: "/mnt/user-data/workspace" } },
              ],
            },
            { content: "done" },
          ],
        },
      ],
      "inline",
    );
    const agent = createLeadAgent({
      model: new ScriptedChatModel({ script }),
      tools: [...tools.values()],
      checkpointer: new MemorySaver(),
    });
    const state = await agent.invoke(
      { messages: [new HumanMessage("go")] },
      configOf({ userId: "carol", threadId: "thread-c" }),
    );
    const expected = await provider.acquire("thread-c", "carol");
    expect(state.sandbox).toEqual({ sandbox_id: expected });
    const results = state.messages.filter((message) => ToolMessage.isInstance(message));
    // A new thread's workspace is empty: bash wrote nothing there.
    expect(results.map((message) => message.content)).toEqual(["hi\n", "(empty)"]);
  });

  it("answers a tool call with a Command carrying the sandbox id only while the state lacks it", async () => {
    const bash = tools.get("bash");
    if (!bash) throw new Error("no bash");
    const toolCall = {
      name: "bash",
      args: { description: "d", command: "echo x" },
      id: "call-1",
      type: "tool_call" as const,
    };
    const fresh = await bash.invoke(
      toolCall,
      configOf(ALICE, { __pregel_scratchpad: { currentTaskInput: { sandbox: null } } }),
    );
    expect(isCommand(fresh)).toBe(true);
    const id = await provider.acquire(ALICE.threadId, ALICE.userId);
    const known = await bash.invoke(
      toolCall,
      configOf(ALICE, {
        __pregel_scratchpad: { currentTaskInput: { sandbox: { sandbox_id: id } } },
      }),
    );
    expect(ToolMessage.isInstance(known)).toBe(true);
    // A graph without a `sandbox` channel gets no state write (it would fail the step).
    const noChannel = await bash.invoke(
      toolCall,
      configOf(ALICE, { __pregel_scratchpad: { currentTaskInput: { messages: [] } } }),
    );
    expect(ToolMessage.isInstance(noChannel)).toBe(true);
  });
});

describe("sandbox tools: refusals before anything runs", () => {
  let home: string;
  let provider: SandboxProvider;
  let tools: Map<string, StructuredToolInterface>;

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), "fawn-sandbox-tools-refusals-"));
    const paths = new FawnPaths(home);
    provider = await createSandboxProvider({
      config: sandboxConfigSchema.parse({ use: "local" }),
      paths,
      skillsDir: null,
    });
    tools = new Map(createSandboxTools({ provider, paths }).map((t) => [t.name, t]));
  });

  afterAll(async () => {
    await provider.shutdown();
    await rm(home, { recursive: true, force: true });
  });

  async function bash(command: string, config: Record<string, unknown>): Promise<unknown> {
    return tools.get("bash")?.invoke({ description: "test", command }, config);
  }

  it("the local provider refuses host bash unless sandbox.allow_host_bash", async () => {
    expect(await bash("echo hi", configOf(ALICE))).toMatch(
      /^Error: Host bash execution is disabled for the local sandbox provider/,
    );
  });

  it("no thread in the run's identity: an initialization error, not a throw", async () => {
    expect(await bash("echo hi", {})).toBe(
      "Error: Unexpected error initializing sandbox: Error: Thread ID not available in runtime context",
    );
  });

  it("after shutdown: the provider's own error", async () => {
    const paths = new FawnPaths(home);
    const closed = await createSandboxProvider({
      config: sandboxConfigSchema.parse({ use: "local", allow_host_bash: true }),
      paths,
      skillsDir: null,
    });
    await closed.shutdown();
    const [first] = createSandboxTools({ provider: closed, paths });
    expect(await first?.invoke({ description: "t", command: "true" }, configOf(ALICE))).toBe(
      "Error: The sandbox provider is shut down.",
    );
  });

  it("the local gate refuses host paths in commands even with host bash allowed", async () => {
    const paths = new FawnPaths(home);
    const open = await createSandboxProvider({
      config: sandboxConfigSchema.parse({ use: "local", allow_host_bash: true }),
      paths,
      skillsDir: null,
    });
    try {
      const [first] = createSandboxTools({ provider: open, paths });
      expect(
        await first?.invoke({ description: "t", command: "cat /etc/passwd" }, configOf(ALICE)),
      ).toBe(
        "Error: Unsafe absolute paths in command: /etc/passwd. Use paths under /mnt/user-data",
      );
    } finally {
      await open.shutdown();
    }
  });
});
