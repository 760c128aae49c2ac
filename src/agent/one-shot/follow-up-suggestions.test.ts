import { describe, expect, it } from "vitest";
import { parseStringList } from "./follow-up-suggestions.js";
import { stripModelWrapping } from "./reply-text.js";

describe("parseStringList", () => {
  it("reads the list out of prose, fences and thinking", () => {
    expect(parseStringList('["A?", "B?"]')).toEqual(["A?", "B?"]);
    expect(parseStringList('Sure! Here they are: ["A?"] Hope that helps.')).toEqual(["A?"]);
    expect(parseStringList('<think>["no"]</think>```json\n["A?",\n "B\\nC?"]\n```')).toEqual([
      "A?",
      "B C?",
    ]);
  });

  it("drops what is not a non-blank string, and answers nothing for a non-list", () => {
    expect(parseStringList('["A?", 3, null, "  ", {"q": 1}]')).toEqual(["A?"]);
    expect(parseStringList("No questions.")).toEqual([]);
    expect(parseStringList('{"a": 1}')).toEqual([]);
    expect(parseStringList("] then [")).toEqual([]);
    expect(parseStringList("[not json]")).toEqual([]);
    expect(parseStringList(`["${"x".repeat(400)}"]`)[0]).toHaveLength(300);
  });
});

describe("stripModelWrapping", () => {
  it("removes closed thinking and one fence around the whole reply", () => {
    expect(stripModelWrapping("<think>hmm</think>  Better draft.")).toBe("Better draft.");
    expect(stripModelWrapping("```\nBetter draft.\n```")).toBe("Better draft.");
    expect(stripModelWrapping("Use `<think>` tags")).toBe("Use `<think>` tags");
  });
});
