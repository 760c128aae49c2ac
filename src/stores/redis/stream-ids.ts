/**
 * Ids of a run's Redis stream. Entries have Redis ids (`<ms>-<seq>`, two unsigned 64-bit
 * numbers); the event ids handed to subscribers — and so the SSE `Last-Event-ID` cursors that come
 * back — are `<ms>-<seq>.<epoch>`, the entry id plus the epoch of the stream's incarnation (a
 * random token the first entry of a new stream picks, copied into every later one). A Redis that
 * lost the stream (restart without persistence, eviction, expiry) starts a new incarnation with a
 * new epoch, so a cursor from the old one is recognised instead of being taken for a position in
 * the new one. A cursor must be checked before it reaches a Redis command: a bad id would come
 * back as a server error instead of the contract's "replay from the earliest event".
 */
import { randomBytes } from "node:crypto";

const STREAM_ID = /^(\d{1,20})-(\d{1,20})$/;
const EPOCH = /^[0-9a-f]{12}$/;
const MAX_PART = 2n ** 64n - 1n;

/** Lower than every id Redis hands out (`XADD` rejects `0-0`): "before the first entry ever". */
export const ORIGIN_ID = "0-0";

/** A cursor this bridge issued: the entry id and the epoch of the stream it belongs to. */
export interface EventCursor {
  /** The Redis entry id. */
  id: string;
  epoch: string;
  /** The cursor as the client sent it (a gap names it). */
  text: string;
}

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

/** True for an epoch as `newEpoch` makes them. */
export function isEpoch(text: string): boolean {
  return EPOCH.test(text);
}

/** A fresh incarnation token: 48 random bits, so two incarnations of one run never share one. */
export function newEpoch(): string {
  return randomBytes(6).toString("hex");
}

/** The event id of entry `id` in the incarnation `epoch`. */
export function formatEventId(id: string, epoch: string): string {
  return `${id}.${epoch}`;
}

/** An event id this bridge issued, or null for anything else (malformed, or another format). */
export function parseEventId(text: string): EventCursor | null {
  const dot = text.lastIndexOf(".");
  if (dot < 0) return null;
  const id = text.slice(0, dot);
  const epoch = text.slice(dot + 1);
  return isStreamId(id) && isEpoch(epoch) ? { id, epoch, text } : null;
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
