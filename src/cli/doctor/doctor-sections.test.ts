import { describe, expect, it } from "vitest";
import { parseConfig } from "../../core/config/load-config.js";
import { configSection } from "./config-section.js";
import { renderDoctorReport } from "./doctor-report.js";
import { modelSection } from "./model-section.js";
import { toolSection } from "./tool-section.js";

const FILE = "/srv/config.yaml";

function loaded(raw: Record<string, unknown>) {
  return parseConfig(raw, { env: {}, cwd: "/srv", source: FILE });
}

describe("doctor sections", () => {
  it("a model with an unknown use is an error, one without a key a warning", () => {
    const { config } = loaded({
      models: [
        { name: "good", use: "openai", model: "gpt", api_key: "sk-1" },
        { name: "keyless", use: "langchain_anthropic:ChatAnthropic", model: "claude" },
        { name: "odd", use: "acme.models:ChatAcme", model: "x" },
        { name: "local", use: "langchain_ollama:ChatOllama", model: "qwen3" },
      ],
    });
    const items = modelSection(config, {}).items;
    expect(items.map((item) => [item.name, item.status])).toEqual([
      ["good (default)", "ok"],
      ["keyless", "warn"],
      ["odd", "fail"],
      ["local", "ok"],
    ]);
    expect(items[1]?.hint).toContain("ANTHROPIC_API_KEY");
    expect(items[2]?.detail).toContain('unknown use "acme.models:ChatAcme"');
  });

  it("no model is the demo model, with how to add one", () => {
    const [demo] = modelSection(loaded({ models: null }).config, {}).items;
    expect(demo).toMatchObject({ status: "ok", name: "demo" });
    expect(demo?.hint).toContain("models:");
  });

  it("an unported tool is a warning, a built-in one ok", () => {
    const { config } = loaded({
      tools: [
        { name: "ls", use: "deerflow.sandbox.tools:ls_tool" },
        { name: "capture", use: "deerflow.community.nothing_here.tools:web_capture_tool" },
      ],
    });
    expect(toolSection(config, {}).items.map((item) => [item.name, item.status])).toEqual([
      ["ls", "ok"],
      ["capture", "warn"],
    ]);
  });

  it("the config section counts verdicts and lists each by key", () => {
    const section = configSection(loaded({ run_ownership: { lease_seconds: 40 }, colour: "x" }));
    expect(section.items[0]).toMatchObject({
      status: "warn",
      name: FILE,
      detail: "1 mapped, 0 unsupported, 1 unknown key(s)",
    });
    expect(section.notes).toEqual([
      "mapped: run_ownership.lease_seconds: mapped onto runtime.lease_seconds",
      "unknown: colour: unknown key, ignored",
    ]);
  });

  it("the report fails only on FAIL items", () => {
    const warnOnly = renderDoctorReport([
      { title: "tools", items: [{ status: "warn", name: "t", detail: "d", hint: "h" }] },
    ]);
    expect(warnOnly.failed).toBe(false);
    expect(warnOnly.text).toBe(
      "tools:\n  warn t: d\n       fix: h\nsummary: 0 error(s), 1 warning(s)\n",
    );
    const failing = renderDoctorReport([
      { title: "models", items: [{ status: "fail", name: "m", detail: "d" }] },
    ]);
    expect(failing.failed).toBe(true);
  });
});
