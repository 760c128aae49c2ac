import { describe, expect, it } from "vitest";
import { toJson } from "./serialize.js";
import { SharedJson } from "./shared-json.js";

const metadata = () => ({
  tags: ["lead_agent"],
  langgraph_step: 1,
  langgraph_path: ["__pregel_pull", "model"],
  versions: { "@langchain/core": "1.4.0" },
  skipped: undefined,
});

describe("SharedJson", () => {
  it("hands the same conversion out for an unchanged object", () => {
    const shared = new SharedJson();
    const meta = metadata();
    const first = shared.convert(meta);
    expect(first).toEqual(toJson(meta));
    expect(shared.convert(meta)).toBe(first);
    // Another object with equal content is converted on its own.
    expect(shared.convert(metadata())).not.toBe(first);
  });

  it("converts again after an edit anywhere inside", () => {
    const shared = new SharedJson();
    const meta = metadata();
    const first = shared.convert(meta);
    meta.tags.push("extra");
    const second = shared.convert(meta);
    expect(second).not.toBe(first);
    expect(second).toEqual(toJson(meta));
    meta.versions["@langchain/core"] = "2.0.0";
    expect(shared.convert(meta)).toEqual(toJson(meta));
    const withKey: Record<string, unknown> = meta;
    withKey.added = 1;
    expect(shared.convert(meta)).toEqual(toJson(meta));
    expect(shared.convert(meta)).toBe(shared.convert(meta));
  });

  it("never caches what a walk cannot see (dates, class instances)", () => {
    const shared = new SharedJson();
    const meta = { at: new Date(0), list: [1] };
    const first = shared.convert(meta);
    expect(first).toEqual(toJson(meta));
    meta.at.setTime(1000);
    expect(shared.convert(meta)).toEqual({ at: new Date(1000).toISOString(), list: [1] });
    expect(shared.convert("text")).toBe("text");
  });
});
