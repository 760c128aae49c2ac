import { type Context, Hono } from "hono";
import type { GatewayServices } from "../gateway-services.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import { firstValues } from "../http/query.js";
import { parseWith, readJsonBody } from "../http/validation.js";
import { selectFields } from "./api-assistant.js";
import { newAssistantOf, patchOf } from "./assistant-bodies.js";
import {
  assistantCountBody,
  assistantCreateBody,
  assistantIdParam,
  assistantLatestBody,
  assistantPatchBody,
  assistantSearchBody,
  assistantVersionsBody,
  deleteQuery,
  graphQuery,
  namespaceParam,
  subgraphsQuery,
} from "./assistant-schemas.js";
import { deleteAssistantThreads } from "./assistant-threads.js";

function pathAssistant(c: Context<GatewayEnv>): string {
  return parseWith(assistantIdParam, c.req.param("assistant_id"), "path");
}

/** `/assistants…`: the served graphs' system assistants and the ones callers create. */
export function assistantRoutes(s: GatewayServices): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  const catalog = s.assistants;

  app.post("/assistants", async (c) => {
    const body = parseWith(assistantCreateBody, await readJsonBody(c), "body");
    return c.json(await catalog.create(newAssistantOf(body), c.get("principal")));
  });

  app.post("/assistants/search", async (c) => {
    const body = parseWith(assistantSearchBody, await readJsonBody(c, { optional: true }), "body");
    const caller = c.get("principal");
    const filter = {
      ...(body.graph_id ? { graphId: body.graph_id } : {}),
      ...(body.name ? { name: body.name } : {}),
      ...(body.metadata ? { metadata: body.metadata } : {}),
    };
    const offset = body.offset ?? 0;
    const found = await catalog.search(
      {
        ...filter,
        limit: body.limit ?? 10,
        offset,
        ...(body.sort_by ? { sortBy: body.sort_by } : {}),
        ...(body.sort_order ? { sortOrder: body.sort_order } : {}),
      },
      caller,
    );
    const total = await catalog.count(filter, caller);
    c.header("X-Pagination-Total", String(total));
    if (offset + found.length < total) c.header("X-Pagination-Next", String(offset + found.length));
    return c.json(found.map((a) => selectFields(a, body.select)));
  });

  app.post("/assistants/count", async (c) => {
    const body = parseWith(
      assistantCountBody.strict(),
      await readJsonBody(c, { optional: true }),
      "body",
    );
    return c.json(
      await catalog.count(
        {
          ...(body.graph_id ? { graphId: body.graph_id } : {}),
          ...(body.name ? { name: body.name } : {}),
          ...(body.metadata ? { metadata: body.metadata } : {}),
        },
        c.get("principal"),
      ),
    );
  });

  app.get("/assistants/:assistant_id", async (c) =>
    c.json(await catalog.get(pathAssistant(c), c.get("principal"))),
  );

  app.patch("/assistants/:assistant_id", async (c) => {
    const id = pathAssistant(c);
    const body = parseWith(assistantPatchBody, await readJsonBody(c, { optional: true }), "body");
    return c.json(await catalog.update(id, patchOf(body), c.get("principal")));
  });

  app.delete("/assistants/:assistant_id", async (c) => {
    const id = pathAssistant(c);
    const { delete_threads: deleteThreads } = parseWith(
      deleteQuery,
      firstValues(c.req.queries()),
      "query",
    );
    const caller = c.get("principal");
    const deleted = await catalog.delete(
      id,
      caller,
      deleteThreads
        ? (found) => deleteAssistantThreads(s.threads, found, caller.userId)
        : undefined,
    );
    return c.json([deleted]);
  });

  app.post("/assistants/:assistant_id/versions", async (c) => {
    const id = pathAssistant(c);
    const body = parseWith(
      assistantVersionsBody,
      await readJsonBody(c, { optional: true }),
      "body",
    );
    const versions = await catalog.versions(
      id,
      {
        limit: body.limit ?? 10,
        offset: body.offset ?? 0,
        ...(body.metadata ? { metadata: body.metadata } : {}),
      },
      c.get("principal"),
    );
    return c.json(versions);
  });

  app.post("/assistants/:assistant_id/latest", async (c) => {
    const id = pathAssistant(c);
    const { version } = parseWith(assistantLatestBody, await readJsonBody(c), "body");
    return c.json(await catalog.setLatest(id, version, c.get("principal")));
  });

  app.get("/assistants/:assistant_id/graph", async (c) => {
    const id = pathAssistant(c);
    const { xray } = parseWith(graphQuery, firstValues(c.req.queries()), "query");
    return c.json(await catalog.graph(id, c.get("principal"), xray === undefined ? {} : { xray }));
  });

  app.get("/assistants/:assistant_id/schemas", async (c) =>
    c.json(await catalog.schemas(pathAssistant(c), c.get("principal"))),
  );

  const subgraphs = async (c: Context<GatewayEnv>, namespace: string | undefined) => {
    const id = pathAssistant(c);
    const { recurse } = parseWith(subgraphsQuery, firstValues(c.req.queries()), "query");
    return c.json(
      await catalog.subgraphs(id, c.get("principal"), {
        ...(namespace ? { namespace } : {}),
        ...(recurse === undefined ? {} : { recurse }),
      }),
    );
  };
  app.get("/assistants/:assistant_id/subgraphs", (c) => subgraphs(c, undefined));
  app.get("/assistants/:assistant_id/subgraphs/:namespace", (c) =>
    subgraphs(c, parseWith(namespaceParam, c.req.param("namespace"), "path")),
  );

  return app;
}
