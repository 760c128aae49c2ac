import { describe, expect, it } from "vitest";
import {
  type DelegationEntry,
  mergeArtifacts,
  mergeDelegations,
  mergePromoted,
  mergeSandbox,
  mergeSkillContext,
  mergeViewedImages,
  replaceUnlessNull,
} from "./thread-state-reducers.js";

describe("thread state reducers", () => {
  it("sandbox: null keeps, same id is idempotent, a different id throws", () => {
    expect(mergeSandbox({ sandbox_id: "a" }, null)).toEqual({ sandbox_id: "a" });
    expect(mergeSandbox(null, { sandbox_id: "a" })).toEqual({ sandbox_id: "a" });
    expect(mergeSandbox({ sandbox_id: "a" }, { sandbox_id: "a" })).toEqual({ sandbox_id: "a" });
    expect(() => mergeSandbox({ sandbox_id: "a" }, { sandbox_id: "b" })).toThrow(/two sandboxes/);
  });

  it("artifacts: concatenated, first occurrence kept, order preserved", () => {
    expect(mergeArtifacts(["/a", "/b"], ["/b", "/c", "/a"])).toEqual(["/a", "/b", "/c"]);
    expect(mergeArtifacts(["/a"], null)).toEqual(["/a"]);
  });

  it("todos: null keeps the list, an empty list clears it", () => {
    const todos = [{ content: "x", status: "pending" as const }];
    expect(replaceUnlessNull(todos, null)).toBe(todos);
    expect(replaceUnlessNull(todos, [])).toEqual([]);
  });

  it("viewed images: merged by path, an empty map clears", () => {
    const image = { mime_type: "image/png", size: 1, actual_path: "/h/a.png" };
    expect(mergeViewedImages({ a: image }, { b: image })).toEqual({ a: image, b: image });
    expect(mergeViewedImages({ a: image }, {})).toEqual({});
  });

  it("promoted tools: same catalog unions names, a new catalog replaces", () => {
    const current = { catalog_hash: "h1", names: ["a"] };
    expect(mergePromoted(current, { catalog_hash: "h1", names: ["b", "a"] })).toEqual({
      catalog_hash: "h1",
      names: ["a", "b"],
    });
    expect(mergePromoted(current, { catalog_hash: "h2", names: ["c"] })).toEqual({
      catalog_hash: "h2",
      names: ["c"],
    });
  });

  it("delegations: upsert by id, first-seen order, a finished one never goes back", () => {
    const entry = (id: string, status: string): DelegationEntry => ({
      id,
      description: id,
      subagent_type: "general-purpose",
      status,
      created_at: "t",
    });
    const merged = mergeDelegations(
      [entry("a", "completed"), entry("b", "running")],
      [entry("b", "completed"), entry("a", "running"), entry("c", "pending")],
    );
    expect(merged.map((d) => [d.id, d.status])).toEqual([
      ["a", "completed"],
      ["b", "completed"],
      ["c", "pending"],
    ]);
    const many = Array.from({ length: 60 }, (_, i) => entry(`d${i}`, "completed"));
    expect(mergeDelegations([], many)).toHaveLength(50);
  });

  it("skill context: dedupe by path, a re-read moves to the end, last 8 kept", () => {
    const skill = (path: string) => ({ name: path, path, description: "", loaded_at: "t" });
    expect(mergeSkillContext([skill("a"), skill("b")], [skill("a")]).map((s) => s.path)).toEqual([
      "b",
      "a",
    ]);
    const many = Array.from({ length: 12 }, (_, i) => skill(`s${i}`));
    expect(mergeSkillContext([], many).map((s) => s.path)).toEqual(
      many.slice(-8).map((s) => s.path),
    );
  });
});
