import { Hono } from "hono";
import type { GatewayServices } from "../gateway-services.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import { parseWith, pathId, readJsonBody } from "../http/validation.js";
import type { ReplayDeps } from "./replay-prepare.js";
import {
  editRegenerateBody,
  prepareEditRegenerate,
  prepareRegenerate,
  regenerateBody,
} from "./replay-prepare.js";

/**
 * The reference's replay preparation, owner only: `POST /threads/{id}/runs/regenerate/prepare
 * {message_id}` and `…/edit-regenerate/prepare {human_message_id, replacement_text}` answer the
 * `{input, checkpoint, metadata, target_run_id}` the client sends on its next run (a fork of the
 * thread at `checkpoint`); edit adds `replacement_human_message_id` and `source_message_ids`.
 * They read only; 409 when the turn is not one that can be replayed.
 */
export function replayRoutes(s: GatewayServices): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  const deps: ReplayDeps = { state: s.state, events: s.events, runs: s.runs };

  app.post("/threads/:thread_id/runs/regenerate/prepare", async (c) => {
    const threadId = pathId(c, "thread_id", "thread");
    const userId = c.get("principal").userId;
    await s.threads.getOwned(threadId, userId);
    const body = parseWith(regenerateBody, await readJsonBody(c), "body");
    return c.json(await prepareRegenerate(deps, threadId, userId, body.message_id));
  });

  app.post("/threads/:thread_id/runs/edit-regenerate/prepare", async (c) => {
    const threadId = pathId(c, "thread_id", "thread");
    const userId = c.get("principal").userId;
    await s.threads.getOwned(threadId, userId);
    const body = parseWith(editRegenerateBody, await readJsonBody(c), "body");
    return c.json(
      await prepareEditRegenerate(
        deps,
        threadId,
        userId,
        body.human_message_id,
        body.replacement_text,
      ),
    );
  });

  return app;
}
