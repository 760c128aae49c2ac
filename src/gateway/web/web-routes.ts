import { readFile, stat } from "node:fs/promises";
import { join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { Context } from "hono";
import { Hono } from "hono";
import type { GatewayEnv } from "../http/gateway-env.js";
import { webContentType } from "./web-content-type.js";

/** `web/dist` of this checkout: where `npm run build:web` (and `npm start`) put the UI. */
export const DEFAULT_WEB_ROOT = fileURLToPath(new URL("../../../web/dist", import.meta.url));

/** Vite names files under `assets/` by content hash: they never change under one name. */
const IMMUTABLE = "public, max-age=31536000, immutable";
/** index.html and unhashed files: revalidate, so a new build shows at the next load. */
const REVALIDATE = "no-cache";

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Fawn</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; line-height: 1.5">
<h1>Fawn is running</h1>
<p>The HTTP API is at <a href="/api/info"><code>/api</code></a>, but the web workspace has not been
built. Build it with <code>npm run build:web</code> (or start the server with
<code>npm start</code>, which builds it when needed), then reload this page.</p>
</body></html>
`;

/**
 * The built web workspace at `/`: files of the Vite build, and `index.html` for every other path
 * a browser loads as a page (`Accept: text/html`; the SPA routes its own URLs). `/api/*` and `/health` are never answered here. Without a build,
 * `/` answers a short page saying how to make one. Async fs only (no blocking IO on the loop).
 */
export function webRoutes(root: string = DEFAULT_WEB_ROOT): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  const base = resolve(root);
  app.get("*", async (c, next) => {
    const path = c.req.path;
    if (path === "/api" || path.startsWith("/api/") || path === "/health") return next();
    const relative = safeRelativePath(path);
    if (relative === null) return next();
    if (relative !== "") {
      const file = join(base, relative);
      if (file.startsWith(base + sep) && (await isFile(file))) {
        const cache = relative.startsWith(`assets${sep}`) ? IMMUTABLE : REVALIDATE;
        return sendFile(c, file, cache);
      }
      // A missing hashed asset is a stale page asking for an old build: 404, not index.html.
      if (relative.startsWith(`assets${sep}`)) return next();
      // Only a page load gets the SPA: a program asking for a missing path (an API client with
      // the wrong prefix, a probe) gets the JSON 404, as the LangGraph servers answer.
      if (!acceptsHtml(c.req.header("accept"))) return next();
    }
    const index = join(base, "index.html");
    if (!(await isFile(index))) {
      c.header("Cache-Control", REVALIDATE);
      return c.html(NOT_BUILT_PAGE, 200);
    }
    return sendFile(c, index, REVALIDATE);
  });
  return app;
}

function acceptsHtml(accept: string | undefined): boolean {
  return accept !== undefined && /\btext\/html\b/i.test(accept);
}

async function sendFile(c: Context<GatewayEnv>, file: string, cache: string): Promise<Response> {
  const body = await readFile(file);
  return c.body(new Uint8Array(body), 200, {
    "Content-Type": webContentType(file),
    "Content-Length": String(body.byteLength),
    "Cache-Control": cache,
    "X-Content-Type-Options": "nosniff",
  });
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/**
 * The request path as a path below the web root ("" for `/`), or null when it could leave the
 * root or names something no build contains: `..` / `.` segments, backslashes, NUL, bad escapes.
 */
export function safeRelativePath(urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes("\0") || decoded.includes("\\")) return null;
  const segments = decoded.split("/").filter((segment) => segment !== "");
  if (segments.some((segment) => segment === ".." || segment === ".")) return null;
  return segments.join(sep);
}
