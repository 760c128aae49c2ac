/**
 * The tool output budget: content-addressed externalization, the synopsis that replaces an
 * oversized output, the fallback truncation and the exemptions. Its failure cleanup (seed 000)
 * is pinned in `test/seeds/externalize-failure-cleanup.test.ts`.
 */
import { readFile } from "node:fs/promises";
import { ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
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
import { bashOutputTarget, filesUnder, tempFolderPerTest } from "../helpers/externalize-fixture.js";

const temp = tempFolderPerTest("fawn-externalize-");

function target(toolCallId: string): ExternalizeTarget {
  return bashOutputTarget(temp.path, toolCallId);
}

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
    expect(await filesUnder(temp.path)).toEqual([]);
    expect(() => parseToolOutputConfig({ storage_subdir: "a/b" })).toThrow(/storage_subdir/);
  });

  it("over the threshold: saved whole, replaced by a synopsis naming the file", async () => {
    const output = Array.from({ length: 2000 }, (_, i) => `line ${i} ${"x".repeat(20)}`).join("\n");
    const outcome = await applyToolOutputBudget(toolMessage(output), {
      config,
      outputsPath: temp.path,
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
    const [file] = await filesUnder(temp.path);
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
      outputsPath: temp.path,
      allowExternalize: true,
    });
    expect(exempt.action).toBeNull();
    const overridden = parseToolOutputConfig({
      tool_overrides: { bash: 0 },
      fallback_max_chars: 0,
    });
    const off = await applyToolOutputBudget(toolMessage(big), {
      config: overridden,
      outputsPath: temp.path,
      allowExternalize: true,
    });
    expect(off.action).toBeNull();
    const small = await applyToolOutputBudget(toolMessage("ok"), {
      config,
      outputsPath: temp.path,
      allowExternalize: true,
    });
    expect(small.message.content).toBe("ok");
    expect(exceedsFallbackBudget(toolMessage(big), config)).toBe(true);
    expect(await filesUnder(temp.path)).toEqual([]);
  });

  it("classifies JSON, CSV and code for the synopsis", () => {
    expect(describeContent(JSON.stringify({ a: 1, b: [1, 2] })).kind).toBe("json");
    expect(describeContent("name,age\nann,3\nbob,4\n").kind).toBe("csv");
    expect(describeContent("import os\n\ndef main():\n  pass\n").kind).toBe("code");
    expect(describeContent("# Title\n\nSome prose here.\n").kind).toBe("text");
  });
});
