import { describe, expect, it } from "vitest";
import { expandEnvReferences } from "./env-expansion.js";

describe("expandEnvReferences", () => {
  const env = { OPENAI_API_KEY: "sk-live", HOST: "db.internal", EMPTY: "" };

  it("expands $VAR and its braced form as whole-string values at any depth", () => {
    const warnings: string[] = [];
    const out = expandEnvReferences(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the braced YAML syntax is under test
      { models: [{ api_key: "$OPENAI_API_KEY" }], database: { host: "${HOST}" } },
      env,
      warnings,
    );
    expect(out).toEqual({ models: [{ api_key: "sk-live" }], database: { host: "db.internal" } });
    expect(warnings).toEqual([]);
  });

  it("leaves a $ that is not a whole-string reference alone", () => {
    const warnings: string[] = [];
    const input = { password: "pa$$word", price: "$5", url: "http://$HOST/x", cash: "$" };
    expect(expandEnvReferences(input, env, warnings)).toEqual(input);
    expect(warnings).toEqual([]);
  });

  it("drops a value whose variable is unset or empty and warns with its path", () => {
    const warnings: string[] = [];
    const out = expandEnvReferences(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the braced YAML syntax is under test
      { models: [{ name: "a", api_key: "$MISSING_KEY" }], x: "${EMPTY}" },
      env,
      warnings,
    );
    expect(out).toEqual({ models: [{ name: "a" }] });
    expect(warnings).toEqual([
      "models[0].api_key: environment variable MISSING_KEY is not set",
      "x: environment variable EMPTY is not set",
    ]);
  });

  it("keeps non-string scalars", () => {
    expect(expandEnvReferences({ a: 1, b: true, c: null }, env, [])).toEqual({
      a: 1,
      b: true,
      c: null,
    });
  });
});
