/**
 * A DeerFlow config.yaml (test/fixtures/deerflow/config.yaml: every key of the reference's
 * config.example.yaml, its optional sections, one model per provider class, every tool of its
 * tools block) loads in Fawn with every key honoured, mapped or named as unsupported — none
 * unknown — and every tool entry builds.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { loopDetectionConfigSchema } from "../../src/agent/middlewares/loop-detection/loop-detection-config.js";
import { summarizationConfigSchema } from "../../src/agent/middlewares/summarization/summarization-config.js";
import { titleConfigSchema } from "../../src/agent/middlewares/title/title-config.js";
import { describeConfiguredTools } from "../../src/agent/tools/describe-configured-tools.js";
import { toolOutputConfigSchema } from "../../src/agent/tools/output-budget/tool-output-config.js";
import { loadConfig } from "../../src/core/config/load-config.js";
import { FAKE_KEYS, DEERFLOW_FIXTURE as FIXTURE } from "../helpers/deerflow-fixture.js";
import { requireChromium } from "../web/helpers/chromium.js";

const REFERENCE_KEYS = fileURLToPath(
  new URL("../fixtures/deerflow/reference-key-paths.txt", import.meta.url),
);

async function loadFixture() {
  return loadConfig({ env: { ...FAKE_KEYS, FAWN_CONFIG: FIXTURE }, cwd: "/tmp" });
}

function keyPaths(value: unknown, prefix = "", out = new Set<string>()): Set<string> {
  if (value && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length) {
    for (const [key, child] of Object.entries(value)) {
      keyPaths(child, prefix ? `${prefix}.${key}` : key, out);
    }
  } else if (Array.isArray(value) && value.some((item) => item && typeof item === "object")) {
    for (const item of value) keyPaths(item, `${prefix}[]`, out);
  } else out.add(prefix);
  return out;
}

describe("a DeerFlow config.yaml", () => {
  it("the fixture carries every key path of the reference's example", async () => {
    const listed = (await readFile(REFERENCE_KEYS, "utf8"))
      .split("\n")
      .filter((line) => line !== "" && !line.startsWith("#"));
    const present = keyPaths(parse(await readFile(FIXTURE, "utf8")));
    const parents = new Set([...present].flatMap((path) => prefixesOf(path)));
    // `models` and `memory.backend_config.model` are empty in the example; here they are filled.
    const missing = listed.filter((path) => !present.has(path) && !parents.has(path));
    expect(missing).toEqual([]);
  });

  it("loads with every key honoured, mapped or unsupported — none unknown", async () => {
    const { findings, warnings, config } = await loadFixture();
    expect(findings.filter((finding) => finding.kind === "unknown")).toEqual([]);
    expect(warnings.filter((warning) => warning.includes("unknown key"))).toEqual([]);
    for (const finding of findings) {
      expect(finding.file).toBe(FIXTURE);
      if (finding.kind === "unsupported") {
        expect(finding.message).toMatch(/^not supported by Fawn, ignored: .{20,}/);
      }
    }
    // The mapped keys took effect.
    expect(config.runtime).toMatchObject({
      lease_seconds: 40,
      grace_seconds: 8,
      heartbeat_enabled: true,
    });
    expect(config.crons).toMatchObject({ poll_interval_seconds: 4, lease_seconds: 90 });
    expect(config.database).toMatchObject({ pool_size: 5, pool_recycle: 240, command_timeout: 20 });
    expect(config.database.url).toMatch(/^sqlite:.*\/\.deer-flow\/data\/fawn\.db$/);
    expect(config.log_level).toBe("warn");
    expect(config.models).toHaveLength(12);
  });

  it("keys of the sections Fawn's features read are known to those features", async () => {
    const raw: Record<string, Record<string, unknown>> = parse(await readFile(FIXTURE, "utf8"));
    const sections = {
      title: titleConfigSchema,
      summarization: summarizationConfigSchema,
      loop_detection: loopDetectionConfigSchema,
      tool_output: toolOutputConfigSchema,
    };
    for (const [section, schema] of Object.entries(sections)) {
      const known = new Set(Object.keys(schema.shape));
      const unknown = Object.keys(raw[section] ?? {}).filter((key) => !known.has(key));
      expect({ section, unknown }).toEqual({ section, unknown: [] });
      expect(schema.safeParse(raw[section]).success).toBe(true);
    }
  });

  it("every tool entry builds, the browser tools included (Chromium is installed)", async () => {
    // Outside CI a machine without Chromium skips this loudly; in CI it must run.
    if (!(await requireChromium())) return;
    const { config } = await loadFixture();
    const tools = describeConfiguredTools(config.tools, { env: FAKE_KEYS });
    expect(tools.map((tool) => tool.name)).toEqual(config.tools.map((tool) => tool.name));
    expect(tools.filter((tool) => tool.name.startsWith("browser_"))).toHaveLength(8);
    const notBuilt = tools.filter((tool) => tool.status !== "built" && tool.status !== "built-in");
    expect(notBuilt.map((tool) => `${tool.name}: ${tool.status} (${tool.use})`)).toEqual([]);
  });
});

function prefixesOf(path: string): string[] {
  const out: string[] = [];
  for (let index = 0; index < path.length; index++) {
    if (path[index] === "." || path[index] === "[") out.push(path.slice(0, index));
  }
  return out;
}
