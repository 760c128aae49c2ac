/** The loader's lists of feature-section keys match the schemas the features parse them with. */
import { describe, expect, it } from "vitest";
import { loopDetectionConfigSchema } from "../../src/agent/middlewares/loop-detection/loop-detection-config.js";
import { summarizationConfigSchema } from "../../src/agent/middlewares/summarization/summarization-config.js";
import { titleConfigSchema } from "../../src/agent/middlewares/title/title-config.js";
import { toolOutputConfigSchema } from "../../src/agent/tools/output-budget/tool-output-config.js";
import { FEATURE_SECTION_KEYS } from "../../src/core/config/feature-section-keys.js";
import { parseConfig } from "../../src/core/config/load-config.js";

describe("feature section keys", () => {
  it.each([
    ["title", titleConfigSchema],
    ["summarization", summarizationConfigSchema],
    ["loop_detection", loopDetectionConfigSchema],
    ["tool_output", toolOutputConfigSchema],
  ] as const)("%s lists exactly its schema's keys", (section, schema) => {
    expect([...(FEATURE_SECTION_KEYS[section] ?? [])].sort()).toEqual(
      Object.keys(schema.shape).sort(),
    );
  });

  it("a key those features do not read is reported as unknown", () => {
    const { findings, config } = parseConfig(
      { title: { enabled: true, max_wordz: 4 }, token_usage: { enabled: true, verbose: 1 } },
      { env: {}, cwd: "/srv", source: "/srv/config.yaml" },
    );
    expect(findings.map((finding) => [finding.kind, finding.path])).toEqual([
      ["unknown", "title.max_wordz"],
      ["unknown", "token_usage.verbose"],
    ]);
    expect(config.title).toMatchObject({ enabled: true });
  });
});
