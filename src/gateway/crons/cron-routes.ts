import { type Context, Hono } from "hono";
import { ValidationError } from "../../core/errors.js";
import { isValidId } from "../../core/ids.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import { parseWith, pathId, readJsonBody } from "../http/validation.js";
import { selectFields, toApiCron } from "./cron-response.js";
import { cronCountBody, cronCreateBody, cronSearchBody, cronUpdateBody } from "./cron-schemas.js";
import type { CronService } from "./cron-service.js";

/** `/runs/crons…` and `/threads/{thread_id}/runs/crons`: the caller's scheduled runs. */
export function cronRoutes(crons: CronService): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  const userOf = (c: Context<GatewayEnv>) => c.get("principal").userId;

  app.post("/runs/crons", async (c) => {
    const body = parseWith(cronCreateBody, await readJsonBody(c), "body");
    return c.json(toApiCron(await crons.create(userOf(c), null, body)));
  });

  app.post("/threads/:thread_id/runs/crons", async (c) => {
    const threadId = pathId(c, "thread_id", "thread");
    const body = parseWith(cronCreateBody, await readJsonBody(c), "body");
    return c.json(toApiCron(await crons.create(userOf(c), threadId, body)));
  });

  app.post("/runs/crons/search", async (c) => {
    const body = parseWith(cronSearchBody, await readJsonBody(c, { optional: true }), "body");
    const rows = await crons.search(userOf(c), body);
    const now = crons.now();
    return c.json(rows.map((row) => selectFields(toApiCron(row), body.select, now)));
  });

  app.post("/runs/crons/count", async (c) => {
    const body = parseWith(cronCountBody, await readJsonBody(c, { optional: true }), "body");
    return c.json(await crons.count(userOf(c), body));
  });

  app.patch("/runs/crons/:cron_id", async (c) => {
    const cronId = cronIdOf(c);
    const body = parseWith(cronUpdateBody, await readJsonBody(c, { optional: true }), "body");
    return c.json(toApiCron(await crons.update(userOf(c), cronId, body)));
  });

  app.delete("/runs/crons/:cron_id", async (c) => {
    await crons.delete(userOf(c), cronIdOf(c));
    return c.body(null, 204);
  });

  return app;
}

function cronIdOf(c: Context<GatewayEnv>): string {
  const value = c.req.param("cron_id");
  if (!isValidId(value)) {
    throw new ValidationError(
      'Invalid cron id; use a UUID or 1-64 characters of letters, digits, "_" or "-".',
    );
  }
  return value;
}
