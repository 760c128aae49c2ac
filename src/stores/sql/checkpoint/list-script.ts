/**
 * Edit scripts for list channels. A stored list version is a script over a base list: a
 * `[start, length]` segment copies that range of the base, a string segment is one message ref.
 * Appending to the parent's list is `[[0, n], ref, ref]`, a few bytes whatever `n` is; a
 * summarization that drops the head is `[[k, n - k], ref]`; a message edited in place is
 * `[[0, i], ref, [i + 1, n - i - 1]]`.
 */
export type ScriptSegment = string | readonly [start: number, length: number];
export type ListScript = readonly ScriptSegment[];

/** One stored list version: the row of `checkpoint_lists` with its script parsed. */
export interface ListNode {
  id: string;
  baseId: string | null;
  length: number;
  script: ListScript;
}

export class ListCorruptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ListCorruptError";
  }
}

/** Where each ref first appears in `refs`. */
export function indexRefs(refs: readonly string[]): Map<string, number> {
  const firstIndex = new Map<string, number>();
  refs.forEach((ref, index) => {
    if (!firstIndex.has(ref)) firstIndex.set(ref, index);
  });
  return firstIndex;
}

/**
 * A script that rebuilds `refs` from `base`: it follows runs of the base where it can and writes
 * a literal ref elsewhere. One pass; a ref seen twice in the base starts runs at its first place.
 * `firstIndex` is `indexRefs(base)`, for a caller that needs it too.
 */
export function diffRefs(
  base: readonly string[],
  refs: readonly string[],
  firstIndex: ReadonlyMap<string, number> = indexRefs(base),
): ScriptSegment[] {
  const script: ScriptSegment[] = [];
  let runStart = -1;
  let runLength = 0;
  const closeRun = (): void => {
    if (runLength > 0) script.push([runStart, runLength]);
    runLength = 0;
  };
  for (const ref of refs) {
    if (runLength > 0 && base[runStart + runLength] === ref) {
      runLength += 1;
      continue;
    }
    closeRun();
    const at = firstIndex.get(ref);
    if (at === undefined) {
      script.push(ref);
    } else {
      runStart = at;
      runLength = 1;
    }
  }
  closeRun();
  return script;
}

/** Whether a script copies anything from its base (if not, the row needs no base). */
export function usesBase(script: ListScript): boolean {
  return script.some((segment) => typeof segment !== "string");
}

export function parseScript(text: string): ListScript {
  const parsed: unknown = JSON.parse(text);
  if (!Array.isArray(parsed)) throw new ListCorruptError("A list script is not an array.");
  for (const segment of parsed) {
    if (typeof segment === "string") continue;
    if (
      Array.isArray(segment) &&
      segment.length === 2 &&
      Number.isInteger(segment[0]) &&
      Number.isInteger(segment[1])
    ) {
      continue;
    }
    throw new ListCorruptError(`A list script has an invalid segment ${JSON.stringify(segment)}.`);
  }
  return parsed as ListScript;
}

/** `out[at, at + length)` is still to be filled from positions `[start, start + length)`. */
interface Gap {
  at: number;
  start: number;
  length: number;
}

type Advance = { done: true; refs: string[] } | { done: false; need: string };

/**
 * Materializes a list by walking its base chain from the head down, carrying only the ranges
 * still unresolved. Each level costs its script length plus the ranges passing through it, so a
 * head `h` levels deep costs O(h + length) — not the O(h × length) of replaying every version
 * forward. Nodes arrive in batches (`advance` says which one it needs next); a level whose refs
 * are already known (`known`) ends the walk early.
 */
export class ListMaterializer {
  private readonly out: string[];
  private gaps: Gap[];
  private pending: string | null;

  constructor(head: ListNode) {
    this.out = new Array<string>(head.length);
    this.gaps = head.length > 0 ? [{ at: 0, start: 0, length: head.length }] : [];
    this.pending = head.id;
  }

  advance(
    nodeOf: (id: string) => ListNode | undefined,
    known: (id: string) => readonly string[] | undefined,
  ): Advance {
    while (this.gaps.length > 0) {
      const id = this.pending;
      if (id === null) throw new ListCorruptError("A list copies from a base it does not have.");
      const refs = known(id);
      if (refs !== undefined) {
        this.fillFrom(id, refs);
        break;
      }
      const node = nodeOf(id);
      if (node === undefined) return { done: false, need: id };
      this.gaps = this.applyScript(node);
      this.pending = node.baseId;
    }
    return { done: true, refs: this.out };
  }

  private fillFrom(id: string, refs: readonly string[]): void {
    for (const gap of this.gaps) {
      if (gap.start + gap.length > refs.length) {
        throw new ListCorruptError(`List ${id} is shorter than a range copied from it.`);
      }
      for (let i = 0; i < gap.length; i++) this.out[gap.at + i] = refs[gap.start + i] as string;
    }
    this.gaps = [];
  }

  /** Resolves the gaps through one level: literals land in `out`, ranges become the next gaps. */
  private applyScript(node: ListNode): Gap[] {
    const offsets = segmentOffsets(node.script);
    if (offsets[offsets.length - 1] !== node.length) {
      throw new ListCorruptError(`List ${node.id} has a script that does not match its length.`);
    }
    const next: Gap[] = [];
    for (const gap of this.gaps) {
      const end = gap.start + gap.length;
      if (end > node.length) {
        throw new ListCorruptError(`List ${node.id} is shorter than a range copied from it.`);
      }
      for (let s = segmentAt(offsets, gap.start); s < node.script.length; s++) {
        const segStart = offsets[s] as number;
        if (segStart >= end) break;
        const segment = node.script[s] as ScriptSegment;
        const from = Math.max(segStart, gap.start);
        const at = gap.at + (from - gap.start);
        if (typeof segment === "string") {
          this.out[at] = segment;
          continue;
        }
        const to = Math.min(segStart + segment[1], end);
        pushGap(next, { at, start: segment[0] + (from - segStart), length: to - from });
      }
    }
    return next;
  }
}

/** `offsets[i]` is where segment `i` starts; the last entry is the list length. */
function segmentOffsets(script: ListScript): number[] {
  const offsets = new Array<number>(script.length + 1);
  let position = 0;
  for (let i = 0; i < script.length; i++) {
    offsets[i] = position;
    const segment = script[i] as ScriptSegment;
    position += typeof segment === "string" ? 1 : segment[1];
  }
  offsets[script.length] = position;
  return offsets;
}

/** Index of the segment holding `position` (binary search over the start offsets). */
function segmentAt(offsets: readonly number[], position: number): number {
  let low = 0;
  let high = offsets.length - 2;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((offsets[mid] as number) <= position) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** Adjacent ranges (contiguous in both the output and the base) merge, keeping gaps few. */
function pushGap(gaps: Gap[], gap: Gap): void {
  if (gap.length <= 0) return;
  const last = gaps[gaps.length - 1];
  if (last && last.at + last.length === gap.at && last.start + last.length === gap.start) {
    last.length += gap.length;
    return;
  }
  gaps.push(gap);
}
