import { Hono } from "hono";
import type { GatewayEnv } from "../http/gateway-env.js";
import { parseWith, pathId, readJsonBody } from "../http/validation.js";
import { branchBody, type ThreadBranches } from "./thread-branches.js";

/**
 * `POST /threads/{id}/branches {message_id, message_ids?, title?}`: a new thread of the caller's
 * from a finished assistant turn of their thread (see `ThreadBranches`); another user's thread
 * is 404, a turn that cannot be branched from 409.
 */
export function branchRoutes(branches: ThreadBranches): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  app.post("/threads/:thread_id/branches", async (c) => {
    const threadId = pathId(c, "thread_id", "thread");
    const body = parseWith(branchBody, await readJsonBody(c), "body");
    return c.json(await branches.branch(threadId, c.get("principal").userId, body));
  });
  return app;
}
