/**
 * Redis stream ids (`<ms>-<seq>`, two unsigned 64-bit numbers) double as SSE `Last-Event-ID`
 * cursors, so a cursor from a client must be checked before it reaches a Redis command: a bad id
 * would come back as a server error instead of the contract's "replay from the earliest event".
 */

const STREAM_ID = /^(\d{1,20})-(\d{1,20})$/;
const MAX_PART = 2n ** 64n - 1n;

/** Lower than every id Redis hands out (`XADD` rejects `0-0`): "before the first entry ever". */
export const ORIGIN_ID = "0-0";

type ParsedId = readonly [ms: bigint, seq: bigint];

function parse(text: string): ParsedId | null {
  const match = STREAM_ID.exec(text);
  if (!match?.[1] || !match[2]) return null;
  const ms = BigInt(match[1]);
  const seq = BigInt(match[2]);
  return ms <= MAX_PART && seq <= MAX_PART ? [ms, seq] : null;
}

/** True for a complete `<ms>-<seq>` id within Redis's range. */
export function isStreamId(text: string): boolean {
  return parse(text) !== null;
}

/** Orders two ids the way Redis does; an id that does not parse sorts below every valid one. */
export function compareStreamIds(a: string, b: string): number {
  const left = parse(a);
  const right = parse(b);
  if (!left || !right) return left ? 1 : right ? -1 : 0;
  if (left[0] !== right[0]) return left[0] < right[0] ? -1 : 1;
  if (left[1] !== right[1]) return left[1] < right[1] ? -1 : 1;
  return 0;
}
