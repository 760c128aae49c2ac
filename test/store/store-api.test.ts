/**
 * `/store/*` driven by the unmodified SDK (`client.store`) against a served gateway, on memory
 * and SQLite stores. Time is a ManualClock shared with the server, so TTLs never need a sleep.
 */
import { randomUUID } from "node:crypto";
import type { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/core/clock.js";
import { createPostgresTestDatabase } from "../helpers/postgres.js";
import { type StoreGateway, startStoreGateway } from "./helpers/store-gateway.js";

const postgres = await createPostgresTestDatabase("store_api");

for (const database of ["memory:", "sqlite", "postgres"] as const) {
  describe.skipIf(database === "postgres" && postgres === null)(
    `the store API (${database})`,
    () => {
      const clock = new ManualClock();
      let gateway: StoreGateway;
      let client: Client;

      beforeAll(async () => {
        const url =
          database === "postgres" ? postgres?.url : database === "memory:" ? database : undefined;
        gateway = await startStoreGateway({ clock, ...(url ? { database: url } : {}) });
        client = gateway.client();
      });
      afterAll(async () => {
        await gateway?.close();
        if (database === "postgres") await postgres?.drop();
      });

      const send = (method: string, path: string, body?: unknown) =>
        fetch(`${gateway.apiUrl}${path}`, {
          method,
          headers: { "content-type": "application/json" },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });

      it("puts, searches, lists, gets and deletes", async () => {
        const namespace = ["allMethods", "data"];
        const key = randomUUID();
        expect((await client.store.searchItems(namespace)).items).toEqual([]);
        expect((await client.store.listNamespaces()).namespaces).toEqual([]);

        await client.store.putItem(namespace, key, { foo: "bar" });
        const got = await client.store.getItem(namespace, key);
        expect(got).toMatchObject({ namespace, key, value: { foo: "bar" } });
        expect(got?.createdAt).toBe(clock.now().toISOString());
        const found = (await client.store.searchItems(namespace)).items;
        expect(found.map((item) => [item.key, item.value])).toEqual([[key, { foo: "bar" }]]);
        expect(found[0]?.updatedAt).toBe(clock.now().toISOString());

        clock.advance(1000);
        await client.store.putItem(namespace, key, { foo: "baz" });
        expect((await client.store.getItem(namespace, key))?.value).toEqual({ foo: "baz" });
        const updated = (await client.store.searchItems(namespace)).items[0];
        expect(new Date(updated?.updatedAt ?? 0).getTime()).toBeGreaterThan(
          new Date(found[0]?.updatedAt ?? 0).getTime(),
        );
        expect(updated?.createdAt).toBe(found[0]?.createdAt);
        expect((await client.store.listNamespaces()).namespaces).toEqual([namespace]);

        await client.store.deleteItem(namespace, key);
        expect(await client.store.getItem(namespace, key)).toBeNull();
        expect((await client.store.searchItems(namespace)).items).toEqual([]);
        expect((await client.store.listNamespaces()).namespaces).toEqual([]);
      });

      it("filters, pages and lists namespaces as the SDK asks", async () => {
        for (const [i, user] of ["u1", "u2", "u3"].entries()) {
          await client.store.putItem(["shop", user, "cart"], "item", { price: (i + 1) * 10 });
          clock.advance(10);
        }
        const search = (options: Parameters<Client["store"]["searchItems"]>[1]) =>
          client.store
            .searchItems(["shop"], options)
            .then((r) => r.items.map((it) => it.namespace[1]));
        expect(await search({ filter: { price: { $gte: 20 } } })).toEqual(["u3", "u2"]);
        expect(await search({ filter: { price: 10 } })).toEqual(["u1"]);
        expect(await search({ limit: 1, offset: 1 })).toEqual(["u2"]);
        expect(await search({ query: "anything" })).toEqual(["u3", "u2", "u1"]);
        const list = (options: Parameters<Client["store"]["listNamespaces"]>[0]) =>
          client.store.listNamespaces(options).then((r) => r.namespaces);
        expect(await list({ prefix: ["shop"], maxDepth: 2, limit: 2 })).toEqual([
          ["shop", "u1"],
          ["shop", "u2"],
        ]);
        expect(await list({ suffix: ["cart"], offset: 2 })).toEqual([["shop", "u3", "cart"]]);
        await client.store.putItem(["with:colon"], "k", {});
        expect(await list({ prefix: ["with:colon"] })).toEqual([["with:colon"]]);
      });

      it("expires an item after its TTL unless a read refreshes it", async () => {
        await client.store.putItem(["ttl"], "kept", { v: 1 }, { ttl: 1 });
        await client.store.putItem(["ttl"], "dropped", { v: 2 }, { ttl: 1 });
        clock.advance(40_000);
        expect(await client.store.getItem(["ttl"], "kept")).not.toBeNull();
        expect(
          await client.store.getItem(["ttl"], "dropped", { refreshTtl: false }),
        ).not.toBeNull();
        clock.advance(40_000);
        expect((await client.store.getItem(["ttl"], "kept"))?.value).toEqual({ v: 1 });
        expect(await client.store.getItem(["ttl"], "dropped")).toBeNull();
        expect((await client.store.searchItems(["ttl"])).items.map((it) => it.key)).toEqual([
          "kept",
        ]);
        clock.advance(120_000);
        expect(await gateway.fawn.graphStore.sweepExpired()).toBe(2);
      });

      it("answers a missing item with null and bad input with 4xx", async () => {
        expect(await client.store.getItem(["nowhere"], "nothing")).toBeNull();
        const statusOf = async (method: string, path: string, body?: unknown) =>
          (await send(method, path, body)).status;
        expect(await statusOf("PUT", "/store/items", { namespace: [], key: "k", value: {} })).toBe(
          400,
        );
        expect(
          await statusOf("PUT", "/store/items", { namespace: ["a.b"], key: "k", value: {} }),
        ).toBe(422);
        expect(
          await statusOf("PUT", "/store/items", { namespace: ["a", ""], key: "k", value: {} }),
        ).toBe(422);
        expect(
          await statusOf("PUT", "/store/items", { namespace: ["a"], key: "k", value: 3 }),
        ).toBe(422);
        const big = { text: "x".repeat(1024 * 1024) };
        expect(
          await statusOf("PUT", "/store/items", { namespace: ["a"], key: "k", value: big }),
        ).toBe(422);
        expect(
          await statusOf("PUT", "/store/items", { namespace: ["a"], key: "k", value: {}, ttl: -1 }),
        ).toBe(422);
        const deep = Array.from({ length: 33 }, () => "n");
        expect(
          await statusOf("PUT", "/store/items", { namespace: deep, key: "k", value: {} }),
        ).toBe(422);
        expect(await statusOf("GET", "/store/items?namespace=a..b&key=k")).toBe(422);
        expect(await statusOf("GET", "/store/items?namespace=a")).toBe(422);
        expect(
          await statusOf("POST", "/store/items/search", { namespace_prefix: ["a"], limit: 5000 }),
        ).toBe(422);
        expect(await statusOf("POST", "/store/namespaces", { max_depth: 0 })).toBe(422);
        const response = await send("DELETE", "/store/items", { namespace: ["a.b"], key: "k" });
        expect(response.status).toBe(422);
        expect(await response.json()).toHaveProperty("detail");
      });
    },
  );
}
