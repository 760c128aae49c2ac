/**
 * The gateway serves the built UI at `/`: files with their content types, immutable caching for
 * hashed assets, `index.html` for SPA routes, never shadowing `/api/*` or `/health`, no path
 * escapes, and a how-to-build page when there is no build. Async fs only (blocking-IO gate on).
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/core/logger.js";
import type { GatewayEnv } from "../../src/gateway/http/gateway-env.js";
import { healthRoute } from "../../src/gateway/system-routes.js";
import { safeRelativePath, webRoutes } from "../../src/gateway/web/web-routes.js";
import { withBlockingIoGate } from "../helpers/blocking-io-gate.js";

/** The gateway's shape: health, an `/api` sub-app, then the UI last (as in app.ts). */
function gateway(root: string): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  app.notFound((c) => c.json({ detail: "No route.", code: "not_found" }, 404));
  app.route("/", healthRoute({ database: null, logger: createLogger({ level: "silent" }) }));
  const api = new Hono<GatewayEnv>();
  api.get("/info", (c) => c.json({ name: "fawn" }));
  app.route("/api", api);
  app.route("/", webRoutes(root));
  return app;
}

describe("web routes", () => {
  let base: string;
  let root: string;
  let app: Hono<GatewayEnv>;
  const INDEX = '<!doctype html><div id="root"></div>';

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), "fawn-web-routes-"));
    root = join(base, "dist");
    await mkdir(join(root, "assets"), { recursive: true });
    await writeFile(join(root, "index.html"), INDEX);
    await writeFile(join(root, "assets", "index-abc123.js"), "console.log(1)");
    await writeFile(join(root, "assets", "index-abc123.css"), "body{}");
    await writeFile(join(root, "favicon.svg"), "<svg/>");
    await writeFile(join(base, "outside.txt"), "secret");
    app = gateway(root);
  });

  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  const get = (
    path: string,
    accept = "text/html,application/xhtml+xml,*/*;q=0.8",
  ): Promise<Response> =>
    withBlockingIoGate(() => app.request(`http://fawn.test${path}`, { headers: { accept } }));

  it("serves index.html at / and for client routes, revalidated", async () => {
    for (const path of ["/", "/chats/0b5e", "/chats/0b5e/"]) {
      const response = await get(path);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(response.headers.get("cache-control")).toBe("no-cache");
      expect(await response.text()).toBe(INDEX);
    }
  });

  it("answers a program's request for a client route with the JSON 404, not the page", async () => {
    const response = await get("/does/not/exist", "*/*");
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: "not_found" });
    expect((await get("/", "*/*")).status).toBe(200);
  });

  it("serves hashed assets with their type, cached for good", async () => {
    const js = await get("/assets/index-abc123.js");
    expect(js.status).toBe(200);
    expect(js.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(js.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(js.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await js.text()).toBe("console.log(1)");
    const css = await get("/assets/index-abc123.css");
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
    const svg = await get("/favicon.svg");
    expect(svg.headers.get("content-type")).toBe("image/svg+xml");
    expect(svg.headers.get("cache-control")).toBe("no-cache");
  });

  it("answers 404 for a missing asset instead of index.html", async () => {
    const response = await get("/assets/index-old999.js");
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: "not_found" });
  });

  it("never shadows /api or /health", async () => {
    expect(await (await get("/health")).json()).toEqual({
      status: "healthy",
      service: "fawn",
      store: "up",
    });
    expect(await (await get("/api/info")).json()).toEqual({ name: "fawn" });
    for (const path of ["/api/nope", "/api", "/api/threads/x/unknown"]) {
      const response = await get(path);
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    }
  });

  it("refuses paths that leave the root", async () => {
    for (const path of [
      "/../outside.txt",
      "/%2e%2e/outside.txt",
      "/assets/..%2f..%2foutside.txt",
    ]) {
      const response = await get(path);
      expect(await response.text()).not.toContain("secret");
    }
    expect(safeRelativePath("/a/../b")).toBeNull();
    expect(safeRelativePath("/a/%2e%2e/b")).toBeNull();
    expect(safeRelativePath("/a\\b")).toBeNull();
    expect(safeRelativePath("/a%00")).toBeNull();
    expect(safeRelativePath("/%E0%A4%A")).toBeNull();
    expect(safeRelativePath("/")).toBe("");
    expect(safeRelativePath("/assets/x.js")).toBe("assets/x.js");
  });

  it("without a build, / says how to build the UI and the API still answers", async () => {
    const empty = gateway(join(root, "no-such-build"));
    const page = await withBlockingIoGate(() => empty.request("http://fawn.test/"));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("npm run build:web");
    const info = await empty.request("http://fawn.test/api/info");
    expect(await info.json()).toEqual({ name: "fawn" });
  });
});
