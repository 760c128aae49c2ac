import type { Item } from "@langchain/langgraph-checkpoint";
import type { Context } from "hono";
import { Hono } from "hono";
import { BadRequestError, NotFoundError } from "../../core/errors.js";
import { graphStoreScope, ScopedGraphStore } from "../../ports/graph-store.js";
import type { GatewayServices } from "../gateway-services.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import { firstValues } from "../http/query.js";
import { parseWith, readJsonBody } from "../http/validation.js";
import {
  deleteItemBody,
  getItemQuery,
  listNamespacesBody,
  putItemBody,
  searchItemsBody,
} from "./store-schemas.js";

/** An item as the API answers it: snake_case timestamps, as the SDK's store client reads them. */
function itemBody(item: Item): Record<string, unknown> {
  return {
    namespace: item.namespace,
    key: item.key,
    value: item.value,
    created_at: item.createdAt.toISOString(),
    updated_at: item.updatedAt.toISOString(),
  };
}

/**
 * `/store/*`: the LangGraph store, as the SDK's `client.store` drives it. With auth on, each
 * caller sees only their own items (a scope the store keeps apart, invisible in namespaces);
 * with auth off, everyone shares one store — the same one the runs' graphs get.
 */
export function storeRoutes(s: GatewayServices): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  const authEnabled = s.config.auth.mode !== "disabled";

  const storeOf = (c: Context<GatewayEnv>): ScopedGraphStore => {
    if (s.graphStore === null) {
      throw new NotFoundError("This server keeps no LangGraph store.");
    }
    return new ScopedGraphStore(
      s.graphStore,
      graphStoreScope(authEnabled, c.get("principal").userId),
    );
  };

  app.put("/store/items", async (c) => {
    const body = parseWith(putItemBody, await readJsonBody(c), "body");
    if (body.namespace.length === 0) {
      throw new BadRequestError("An item's namespace needs at least one label.");
    }
    await storeOf(c).putItem(body.namespace, body.key, body.value, { ttl: body.ttl ?? null });
    return c.body(null, 204);
  });

  app.get("/store/items", async (c) => {
    const query = parseWith(getItemQuery, firstValues(c.req.queries()), "query");
    const item = await storeOf(c).getItem(query.namespace, query.key, {
      ...(query.refresh_ttl === undefined ? {} : { refreshTtl: query.refresh_ttl }),
    });
    return c.json(item === null ? null : itemBody(item));
  });

  app.delete("/store/items", async (c) => {
    const body = parseWith(deleteItemBody, await readJsonBody(c), "body");
    await storeOf(c).putItem(body.namespace ?? [], body.key, null);
    return c.body(null, 204);
  });

  app.post("/store/items/search", async (c) => {
    const body = parseWith(searchItemsBody, await readJsonBody(c), "body");
    const items = await storeOf(c).searchItems(body.namespace_prefix, {
      limit: body.limit ?? 10,
      offset: body.offset ?? 0,
      ...(body.filter ? { filter: body.filter } : {}),
      ...(body.query ? { query: body.query } : {}),
      ...(typeof body.refresh_ttl === "boolean" ? { refreshTtl: body.refresh_ttl } : {}),
    });
    return c.json({ items: items.map(itemBody) });
  });

  app.post("/store/namespaces", async (c) => {
    const body = parseWith(listNamespacesBody, await readJsonBody(c, { optional: true }), "body");
    const namespaces = await storeOf(c).namespaces({
      limit: body.limit ?? 100,
      offset: body.offset ?? 0,
      ...(body.prefix ? { prefix: body.prefix } : {}),
      ...(body.suffix ? { suffix: body.suffix } : {}),
      ...(body.max_depth ? { maxDepth: body.max_depth } : {}),
    });
    return c.json({ namespaces });
  });

  return app;
}
