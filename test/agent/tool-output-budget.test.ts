/**
 * Seed 000 (`tests/test_externalize_failure_cleanup.py`) ported: a failed externalization must
 * not leave a half-written output behind. Each test keeps the seed test's name (with its
 * parametrization ids); faults are injected through the externalizer's ops seam instead of
 * monkeypatching `open` / `os.replace` / `uuid`. Then unit checks of the budget itself.
 */
import { execFile } from "node:child_process";
import { lstat, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { ToolMessage } from "@langchain/core/messages";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  applyToolOutputBudget,
  exceedsFallbackBudget,
} from "../../src/agent/tools/output-budget/apply-tool-output-budget.js";
import {
  type ExternalizeTarget,
  externalizedFileName,
  externalizeToolOutput,
} from "../../src/agent/tools/output-budget/externalize-tool-output.js";
import { truncateToolOutput } from "../../src/agent/tools/output-budget/fallback-truncation.js";
import { describeContent } from "../../src/agent/tools/output-budget/output-synopsis.js";
import {
  parseToolOutputConfig,
  type ToolOutputConfig,
} from "../../src/agent/tools/output-budget/tool-output-config.js";
import {
  defaultPublishFileOps,
  type PublishFileOps,
  type PublishHandle,
} from "../../src/core/atomic-file.js";
import { Latch, within } from "../helpers/latch.js";

let tmpPath: string;

beforeEach(async () => {
  tmpPath = await mkdtemp(join(tmpdir(), "fawn-externalize-"));
});

afterEach(async () => {
  await rm(tmpPath, { recursive: true, force: true });
});

/** Every regular file under `dir`, like the seed's `rglob("*") if p.is_file()`. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true });
  const files: string[] = [];
  for (const entry of entries) {
    if ((await lstat(join(dir, entry))).isFile()) files.push(join(dir, entry));
  }
  return files.sort();
}

function target(toolCallId: string): ExternalizeTarget {
  return { toolName: "bash", toolCallId, outputsPath: tmpPath, storageSubdir: "sub" };
}

function fileNameOf(virtualPath: string): string {
  return virtualPath.slice(virtualPath.lastIndexOf("/") + 1);
}

/** Like a full disk: half the bytes reach the file, then the write fails (seed: _FailsAfterHalfTheWrite). */
const failsAfterHalfTheWrite: PublishFileOps = {
  ...defaultPublishFileOps,
  async open(path, flags, mode) {
    const real = await defaultPublishFileOps.open(path, flags, mode);
    const handle: PublishHandle = {
      async writeFile(data) {
        await real.writeFile(typeof data === "string" ? data.slice(0, data.length / 2) : data);
        throw Object.assign(new Error("No space left on device"), { code: "ENOSPC", errno: 28 });
      },
      sync: () => real.sync(),
      close: () => real.close(),
    };
    return handle;
  },
};

describe("seed 000: externalization failure cleanup", () => {
  it("test_failed_write_leaves_no_file_behind", async () => {
    const result = await externalizeToolOutput("X".repeat(100), target("call_1"), {
      ops: failsAfterHalfTheWrite,
    });

    expect(result).toBeNull();
    expect(await filesUnder(tmpPath)).toEqual([]);
  });

  it("test_successful_write_publishes_the_whole_content", async () => {
    const result = await externalizeToolOutput("Y".repeat(100), target("call_2"));

    expect(result).not.toBeNull();
    const written = await filesUnder(tmpPath);
    expect(written).toHaveLength(1);
    expect(await readFile(written[0] ?? "", "utf8")).toBe("Y".repeat(100));
  });

  const contents = [
    ["identical-output", "A".repeat(1000)],
    ["different-output", "B".repeat(200)],
  ] as const;
  for (const [contentId, secondContent] of contents) {
    for (const secondPublishFails of [false, true]) {
      const name = `test_concurrent_externalizations_do_not_share_temporary_files[${contentId}-${secondPublishFails ? "True" : "False"}]`;
      it(name, async () => {
        const firstReady = new Latch();
        const releaseFirst = new Latch();
        const ops: PublishFileOps = {
          ...defaultPublishFileOps,
          async rename(source, destination) {
            if (!firstReady.isSet) {
              // The first writer has closed its file but has not published it.
              firstReady.set();
              await within(releaseFirst.wait(), 10_000, "first writer never released");
            } else if (secondPublishFails) {
              throw new Error("Publication failed");
            }
            await defaultPublishFileOps.rename(source, destination);
          },
        };
        const kwargs = target("same_call");
        const first = externalizeToolOutput("A".repeat(1000), kwargs, { ops });
        let secondPath: string | null;
        try {
          await within(firstReady.wait(), 10_000, "first writer never reached publication");
          secondPath = await externalizeToolOutput(secondContent, kwargs, { ops });
        } finally {
          // Always release the first writer, including when the second call fails.
          releaseFirst.set();
        }
        const firstPath = await within(first, 10_000, "first writer did not finish");

        expect(firstPath).not.toBeNull();
        if (secondPublishFails) {
          expect(secondPath).toBeNull();
        } else {
          expect(secondPath).not.toBeNull();
          expect(firstPath === secondPath).toBe(secondContent === "A".repeat(1000));
        }
        const written = await filesUnder(tmpPath);
        expect(written).toHaveLength(secondPath !== null && secondPath !== firstPath ? 2 : 1);
        // Every advertised path retains its complete bytes, with no leftover temps.
        const storage = join(tmpPath, "sub");
        expect(await readFile(join(storage, fileNameOf(firstPath ?? "")), "utf8")).toBe(
          "A".repeat(1000),
        );
        if (secondPath !== null) {
          expect(await readFile(join(storage, fileNameOf(secondPath)), "utf8")).toBe(secondContent);
        }
      });
    }
  }

  it("test_temporary_file_creation_failure_preserves_existing_output", async () => {
    const storageDir = join(tmpPath, "sub");
    const content = "Previous complete output";
    const path = await externalizeToolOutput(content, target("call_1"));
    expect(path).not.toBeNull();
    const published = join(storageDir, fileNameOf(path ?? ""));

    const failToCreate: PublishFileOps = {
      ...defaultPublishFileOps,
      open: async () => {
        throw new Error("Cannot create temporary file");
      },
    };
    const result = await externalizeToolOutput(content, target("call_1"), { ops: failToCreate });

    expect(result).toBeNull();
    expect(await readdir(storageDir)).toEqual([fileNameOf(published)]);
    expect(await readFile(published, "utf8")).toBe("Previous complete output");
  });

  const masks = [
    ["other-readable", 0o022],
    ["group-writable", 0o002],
    ["private", 0o077],
  ] as const;
  for (const [maskId, mask] of masks) {
    it(`test_published_output_respects_umask[${maskId}]`, async () => {
      // Set umask only in a child; it is process-global and must not race other tests.
      const script = `
        import { chmod, readFile, stat } from "node:fs/promises";
        import { join } from "node:path";
        import { externalizeToolOutput } from "./src/agent/tools/output-budget/externalize-tool-output.ts";
        process.umask(Number(process.argv[2]));
        const kwargs = { toolName: "bash", toolCallId: "mode", outputsPath: process.argv[1], storageSubdir: "sub" };
        const content = "Complete output";
        const firstPath = await externalizeToolOutput(content, kwargs);
        if (firstPath === null) throw new Error("first externalization failed");
        const published = join(process.argv[1], "sub", firstPath.slice(firstPath.lastIndexOf("/") + 1));
        const initialMode = (await stat(published)).mode & 0o777;
        await chmod(published, 0o600);
        if ((await externalizeToolOutput(content, kwargs)) !== firstPath) throw new Error("path changed");
        console.log(JSON.stringify({
          modes: [initialMode, (await stat(published)).mode & 0o777],
          content: await readFile(published, "utf8"),
        }));
      `;
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ["--import", "tsx", "--input-type=module", "-e", script, tmpPath, String(mask)],
        { cwd: process.cwd(), timeout: 30_000 },
      );
      const observed: { modes: number[]; content: string } = JSON.parse(stdout);
      expect(observed.content).toBe("Complete output");
      expect(observed.modes).toEqual([0o666 & ~mask, 0o666 & ~mask]);
    });
  }

  it("test_exclusive_creation_collision_preserves_other_writers_temp", async () => {
    const storageDir = join(tmpPath, "sub");
    const content = "Previous complete output";
    const path = await externalizeToolOutput(content, target("call_1"));
    expect(path).not.toBeNull();
    const published = fileNameOf(path ?? "");
    // The temp name another writer would hold if its random part were "collision"
    // (publishFileAtomically names temps `.<final name>.<random>.tmp`).
    const ownedByOtherWriter = `.${published}.collision.tmp`;
    await writeFile(join(storageDir, ownedByOtherWriter), "Other writer's pending output");

    const result = await externalizeToolOutput(content, target("call_1"), {
      randomSuffix: () => "collision",
    });

    expect(result).toBeNull();
    expect((await readdir(storageDir)).sort()).toEqual([ownedByOtherWriter, published].sort());
    expect(await readFile(join(storageDir, ownedByOtherWriter), "utf8")).toBe(
      "Other writer's pending output",
    );
    expect(await readFile(join(storageDir, published), "utf8")).toBe("Previous complete output");
  });
});

describe("tool output budget", () => {
  const config: ToolOutputConfig = parseToolOutputConfig({});

  function toolMessage(content: string, name = "bash"): ToolMessage {
    return new ToolMessage({ content, name, tool_call_id: "call_x", id: "msg_x" });
  }

  it("names are content-addressed: same content, same file; new content, new file", async () => {
    const first = await externalizeToolOutput("one", target("a"));
    const again = await externalizeToolOutput("one", target("b"));
    const other = await externalizeToolOutput("two", target("a"));
    expect(first).toBe(again);
    expect(other).not.toBe(first);
    expect(first).toMatch(/^\/mnt\/user-data\/outputs\/sub\/bash-[0-9a-f]{24}\.log$/);
    expect(externalizedFileName("../../web/../evil", "x")).toMatch(/^evil-[0-9a-f]{24}\.txt$/);
  });

  it("refuses storage folders outside outputs", async () => {
    for (const storageSubdir of ["/abs", "../up", "a/../../b", ""]) {
      expect(await externalizeToolOutput("x", { ...target("c"), storageSubdir })).toBeNull();
    }
    expect(await filesUnder(tmpPath)).toEqual([]);
    expect(() => parseToolOutputConfig({ storage_subdir: "a/b" })).toThrow(/storage_subdir/);
  });

  it("over the threshold: saved whole, replaced by a synopsis naming the file", async () => {
    const output = Array.from({ length: 2000 }, (_, i) => `line ${i} ${"x".repeat(20)}`).join("\n");
    const outcome = await applyToolOutputBudget(toolMessage(output), {
      config,
      outputsPath: tmpPath,
      allowExternalize: true,
    });
    expect(outcome.action).toBe("externalized");
    const synopsis = String(outcome.message.content);
    expect(synopsis.split("\n")[0]).toBe(
      `[Full bash output saved to ${outcome.path} (${output.length} chars, ~${Math.ceil(output.length / 4)} tokens).]`,
    );
    expect(synopsis).toContain(`Use read_file on ${outcome.path} with start_line and end_line`);
    expect(synopsis).toContain(output.slice(0, 2000));
    expect(synopsis).toContain(output.slice(-1000));
    expect(synopsis.length).toBeLessThan(4000);
    expect(outcome.message.id).toBe("msg_x");
    expect(outcome.message.tool_call_id).toBe("call_x");
    const [file] = await filesUnder(tmpPath);
    expect(await readFile(file ?? "", "utf8")).toBe(output);
  });

  it("without a place to save: head + tail within the fallback budget, on line boundaries", async () => {
    const output = Array.from({ length: 5000 }, (_, i) => `row ${i}`).join("\n");
    const outcome = await applyToolOutputBudget(toolMessage(output), {
      config,
      outputsPath: null,
      allowExternalize: true,
    });
    expect(outcome.action).toBe("truncated");
    const text = String(outcome.message.content);
    expect(text.length).toBeLessThanOrEqual(config.fallback_max_chars);
    expect(text).toMatch(/\[\.\.\. \d+ chars omitted from bash output\. Persistent storage/);
    const [head = "", tail = ""] = text.split(/\n\n\[\.\.\.[^\]]*\]\n\n/);
    expect(output.startsWith(head)).toBe(true);
    expect(output.endsWith(tail)).toBe(true);
    expect(head.endsWith("\n")).toBe(true);
    expect(tail.startsWith("row ")).toBe(true);
    expect(
      truncateToolOutput("z".repeat(100), "t", { maxChars: 20, headChars: 8, tailChars: 3 }),
    ).toBe("z".repeat(20));
  });

  it("exempt tools, per-tool overrides and small outputs pass untouched", async () => {
    const big = "q".repeat(40_000);
    const exempt = await applyToolOutputBudget(toolMessage(big, "read_file"), {
      config,
      outputsPath: tmpPath,
      allowExternalize: true,
    });
    expect(exempt.action).toBeNull();
    const overridden = parseToolOutputConfig({
      tool_overrides: { bash: 0 },
      fallback_max_chars: 0,
    });
    const off = await applyToolOutputBudget(toolMessage(big), {
      config: overridden,
      outputsPath: tmpPath,
      allowExternalize: true,
    });
    expect(off.action).toBeNull();
    const small = await applyToolOutputBudget(toolMessage("ok"), {
      config,
      outputsPath: tmpPath,
      allowExternalize: true,
    });
    expect(small.message.content).toBe("ok");
    expect(exceedsFallbackBudget(toolMessage(big), config)).toBe(true);
    expect(await filesUnder(tmpPath)).toEqual([]);
  });

  it("classifies JSON, CSV and code for the synopsis", () => {
    expect(describeContent(JSON.stringify({ a: 1, b: [1, 2] })).kind).toBe("json");
    expect(describeContent("name,age\nann,3\nbob,4\n").kind).toBe("csv");
    expect(describeContent("import os\n\ndef main():\n  pass\n").kind).toBe("code");
    expect(describeContent("# Title\n\nSome prose here.\n").kind).toBe("text");
  });
});
