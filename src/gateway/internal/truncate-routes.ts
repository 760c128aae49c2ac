import { Hono } from "hono";
import { z } from "zod";
import type { GatewayEnv } from "../http/gateway-env.js";
import { parseWith, readJsonBody } from "../http/validation.js";
import type { DataReset } from "./data-reset.js";

const truncateBody = z.strictObject({
  runs: z.boolean().optional(),
  threads: z.boolean().optional(),
  assistants: z.boolean().optional(),
  store: z.boolean().optional(),
  checkpoint: z.boolean().optional(),
  // The dev server's own name for `checkpoint`.
  checkpointer: z.boolean().optional(),
});

/** `POST /internal/truncate`: the LangGraph dev server's reset, for test suites (opt-in). */
export function truncateRoutes(reset: DataReset): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  app.post("/internal/truncate", async (c) => {
    // What exists at arrival is what goes; the body is read after.
    const now = new Date();
    const body = parseWith(truncateBody, await readJsonBody(c, { optional: true }), "body");
    await reset.truncate({ ...body, checkpoint: body.checkpoint ?? body.checkpointer }, now);
    return c.json({ ok: true });
  });
  return app;
}
