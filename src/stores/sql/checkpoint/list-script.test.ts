import { describe, expect, it } from "vitest";
import {
  diffRefs,
  ListCorruptError,
  ListMaterializer,
  type ListNode,
  parseScript,
  type ScriptSegment,
  usesBase,
} from "./list-script.js";

/** Applies a script forward (the slow, obvious way) to check the fast materializer against. */
function applyForward(base: readonly string[], script: readonly ScriptSegment[]): string[] {
  return script.flatMap((segment) =>
    typeof segment === "string" ? [segment] : base.slice(segment[0], segment[0] + segment[1]),
  );
}

function materialize(
  headId: string,
  nodes: Map<string, ListNode>,
  known: Map<string, string[]> = new Map(),
): string[] {
  const head = nodes.get(headId);
  if (head === undefined) throw new Error("no head");
  const step = new ListMaterializer(head).advance(
    (id) => nodes.get(id),
    (id) => known.get(id),
  );
  if (!step.done) throw new Error(`needs ${step.need}`);
  return step.refs;
}

/** A deterministic pseudo-random sequence, so a failure reproduces. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe("diffRefs", () => {
  it("encodes an append to the base as one range plus the new refs", () => {
    expect(diffRefs(["a", "b", "c"], ["a", "b", "c", "d", "e"])).toEqual([[0, 3], "d", "e"]);
  });

  it("encodes a dropped head, an edit in place and a full rewrite", () => {
    expect(diffRefs(["a", "b", "c", "d"], ["c", "d", "x"])).toEqual([[2, 2], "x"]);
    expect(diffRefs(["a", "b", "c", "d"], ["a", "x", "c", "d"])).toEqual([[0, 1], "x", [2, 2]]);
    expect(diffRefs(["a", "b"], ["x", "y"])).toEqual(["x", "y"]);
    expect(usesBase(diffRefs(["a", "b"], ["x", "y"]))).toBe(false);
  });

  it("round-trips random edits", () => {
    const next = random(7);
    let base = ["m0", "m1", "m2"];
    for (let round = 0; round < 200; round++) {
      const edited = [...base];
      const op = Math.floor(next() * 4);
      if (op === 0) edited.push(`m${round}-new`);
      if (op === 1) edited.splice(Math.floor(next() * edited.length), 1);
      if (op === 2) edited[Math.floor(next() * edited.length)] = `m${round}-edit`;
      if (op === 3) edited.unshift(base[Math.floor(next() * base.length)] ?? "dup");
      expect(applyForward(base, diffRefs(base, edited))).toEqual(edited);
      base = edited.length > 0 ? edited : ["seed"];
    }
  });
});

describe("ListMaterializer", () => {
  function chainOfEdits(
    versions: number,
    seed: number,
  ): { nodes: Map<string, ListNode>; lists: string[][] } {
    const next = random(seed);
    const nodes = new Map<string, ListNode>();
    const lists: string[][] = [];
    let previous: string[] = [];
    for (let v = 0; v < versions; v++) {
      const list = [...previous];
      const op = next();
      if (op < 0.7) list.push(`h${v}`, `a${v}`);
      else if (op < 0.8 && list.length > 2) list.splice(0, 2);
      else if (op < 0.9 && list.length > 0) list[Math.floor(next() * list.length)] = `e${v}`;
      else list.push(`x${v}`);
      const script = diffRefs(previous, list);
      nodes.set(`L${v}`, {
        id: `L${v}`,
        baseId: usesBase(script) ? `L${v - 1}` : null,
        length: list.length,
        script: parseScript(JSON.stringify(script)),
      });
      lists.push(list);
      previous = list;
    }
    return { nodes, lists };
  }

  it("rebuilds every version of a long chain of edits", () => {
    const { nodes, lists } = chainOfEdits(400, 11);
    lists.forEach((list, v) => {
      expect(materialize(`L${v}`, nodes)).toEqual(list);
    });
  });

  it("stops at a level whose refs are already known", () => {
    const { nodes, lists } = chainOfEdits(50, 3);
    const known = new Map([["L40", lists[40] ?? []]]);
    const partial = new Map([...nodes].filter(([id]) => Number(id.slice(1)) > 40));
    expect(materialize("L49", partial, known)).toEqual(lists[49]);
  });

  it("asks for the next node it needs instead of guessing", () => {
    const { nodes } = chainOfEdits(10, 5);
    const head = nodes.get("L9");
    if (head === undefined) throw new Error("no head");
    const step = new ListMaterializer(head).advance(
      (id) => (id === "L9" ? head : undefined),
      () => undefined,
    );
    expect(step.done).toBe(false);
  });

  it("reports a script that does not match its length as corrupt", () => {
    const nodes = new Map<string, ListNode>([
      ["a", { id: "a", baseId: null, length: 3, script: ["x", "y"] }],
    ]);
    expect(() => materialize("a", nodes)).toThrow(ListCorruptError);
  });

  it("rejects malformed scripts", () => {
    expect(() => parseScript('{"a":1}')).toThrow(ListCorruptError);
    expect(() => parseScript("[[1]]")).toThrow(ListCorruptError);
  });
});
