import { Hono } from "hono";
import { z } from "zod";
import type { GatewayServices } from "../gateway-services.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import { jsonFilter, MAX_PAGE } from "../http/json-schemas.js";
import { parseWith, readJsonBody } from "../http/validation.js";
import type { ApiAssistant } from "./assistant-catalog.js";

const searchBody = z.strictObject({
  graph_id: z.string().max(128).nullish(),
  name: z.string().max(256).nullish(),
  metadata: jsonFilter.nullish(),
  limit: z.number().int().min(1).max(MAX_PAGE).nullish(),
  offset: z.number().int().min(0).max(1_000_000).nullish(),
  sort_by: z.enum(["assistant_id", "graph_id", "name", "created_at", "updated_at"]).nullish(),
  sort_order: z.enum(["asc", "desc"]).nullish(),
  select: z.array(z.string().max(64)).max(20).nullish(),
});

const countBody = searchBody.pick({ graph_id: true, name: true, metadata: true });

const assistantId = z.string().min(1).max(128);

function matches(a: ApiAssistant, q: z.output<typeof countBody>): boolean {
  return (
    (!q.graph_id || a.graph_id === q.graph_id) &&
    (!q.name || a.name.toLowerCase().includes(q.name.toLowerCase())) &&
    Object.entries(q.metadata ?? {}).every(
      ([key, value]) => JSON.stringify(a.metadata[key]) === JSON.stringify(value),
    )
  );
}

/** `/assistants…`: the one assistant this server runs. */
export function assistantRoutes(s: GatewayServices): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  const catalog = s.assistants;

  app.post("/assistants/search", async (c) => {
    const body = parseWith(searchBody, await readJsonBody(c, { optional: true }), "body");
    const offset = body.offset ?? 0;
    const found = catalog.list().filter((a) => matches(a, body));
    return c.json(found.slice(offset, offset + (body.limit ?? 10)));
  });

  app.post("/assistants/count", async (c) => {
    const body = parseWith(countBody.strict(), await readJsonBody(c, { optional: true }), "body");
    return c.json(catalog.list().filter((a) => matches(a, body)).length);
  });

  app.get("/assistants/:assistant_id", (c) =>
    c.json(catalog.get(parseWith(assistantId, c.req.param("assistant_id"), "path"))),
  );
  app.get("/assistants/:assistant_id/graph", async (c) =>
    c.json(await catalog.graph(parseWith(assistantId, c.req.param("assistant_id"), "path"))),
  );
  app.get("/assistants/:assistant_id/schemas", async (c) =>
    c.json(await catalog.schemas(parseWith(assistantId, c.req.param("assistant_id"), "path"))),
  );
  app.get("/assistants/:assistant_id/subgraphs", async (c) =>
    c.json(await catalog.subgraphs(parseWith(assistantId, c.req.param("assistant_id"), "path"))),
  );

  return app;
}
