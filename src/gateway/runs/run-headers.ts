import type { Context } from "hono";
import { z } from "zod";
import type { GatewayEnv } from "../http/gateway-env.js";
import { parseWith } from "../http/validation.js";

const idempotencyKey = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[\x21-\x7e]+$/, "must be visible ASCII without spaces");

const lastEventId = z.string().max(256);

/** `Idempotency-Key`: the same key from the same user returns the same run. */
export function idempotencyKeyHeader(c: Context<GatewayEnv>): string | null {
  const value = c.req.header("idempotency-key");
  return value === undefined ? null : parseWith(idempotencyKey, value, "header");
}

/** `Last-Event-ID`: resume a stream strictly after this event. */
export function lastEventIdHeader(c: Context<GatewayEnv>): string | null {
  const value = c.req.header("last-event-id");
  return value === undefined || value === "" ? null : parseWith(lastEventId, value, "header");
}

/** Whether the client asked for SSE (join answers JSON otherwise). */
export function wantsEventStream(c: Context<GatewayEnv>): boolean {
  return (c.req.header("accept") ?? "").includes("text/event-stream");
}
