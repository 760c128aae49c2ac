import { type Context, Hono } from "hono";
import { isoNow } from "../../core/clock.js";
import type { Json } from "../../core/json/serialize.js";
import type { GatewayServices } from "../gateway-services.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import { parseWith, pathId, readJsonBody } from "../http/validation.js";
import { activeGoalOf, goalRequestBody, newThreadGoal } from "./thread-goal.js";

const AT_HEAD = { checkpoint_id: null, checkpoint_ns: null };

/**
 * The reference's `/threads/{id}/goal`: `GET` the active goal, `PUT {objective,
 * max_continuations}` to set or replace it, `DELETE` to clear it; each answers `{goal}` (null
 * when none). The goal lives in the thread state's `goal` channel, written as a state update, so
 * it is 409 while a run is in flight and `values.goal` shows it. A new chat sets its goal before
 * its first run, so `PUT` creates the caller's thread when the id is not taken yet. Fawn keeps
 * and shows the goal; it does not run the reference's automatic continuation turns.
 */
export function goalRoutes(s: GatewayServices): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();

  async function currentGoal(threadId: string): Promise<Record<string, Json> | null> {
    const state = await s.state.state(threadId);
    return activeGoalOf(state.values);
  }

  function scope(c: Context<GatewayEnv>): { threadId: string; userId: string } {
    return { threadId: pathId(c, "thread_id", "thread"), userId: c.get("principal").userId };
  }

  app.get("/threads/:thread_id/goal", async (c) => {
    const { threadId, userId } = scope(c);
    const row = await s.threads.getOwnedOrUnclaimed(threadId, userId);
    return c.json({ goal: row === null ? null : await currentGoal(threadId) });
  });

  app.put("/threads/:thread_id/goal", async (c) => {
    const { threadId, userId } = scope(c);
    const body = parseWith(goalRequestBody, await readJsonBody(c), "body");
    const goal = newThreadGoal(body.objective, body.max_continuations, isoNow());
    if ((await s.threads.getOwnedOrUnclaimed(threadId, userId)) === null) {
      await s.threads.ensure(threadId, userId);
    }
    await s.threads.writeState(threadId, userId, {
      updates: [{ goal }],
      asNode: "goal",
      checkpoint: AT_HEAD,
    });
    return c.json({ goal });
  });

  app.delete("/threads/:thread_id/goal", async (c) => {
    const { threadId, userId } = scope(c);
    const row = await s.threads.getOwnedOrUnclaimed(threadId, userId);
    if (row !== null && (await currentGoal(threadId)) !== null) {
      await s.threads.writeState(threadId, userId, {
        updates: [{ goal: null }],
        asNode: "goal",
        checkpoint: AT_HEAD,
      });
    }
    return c.json({ goal: null });
  });

  return app;
}
