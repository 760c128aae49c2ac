import { stat } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { type Env, Hono, type HonoRequest } from "hono";
import { ConfigError } from "../core/errors.js";

/*
 * `http.app` of a langgraph.json: a project's own Hono app, mounted at the root before Fawn's
 * routes, as LangGraph's server mounts it before its API. Its routes win where they match; its
 * middlewares (`app.use`) run for every request, Fawn's API included; anything it does not
 * answer reaches Fawn unchanged.
 */

/** What Fawn needs of a Hono app (a project may bring its own copy of `hono`). */
export interface FetchApp {
  fetch(
    request: Request,
    env?: unknown,
    executionContext?: undefined,
  ): Response | Promise<Response>;
}

interface MountableApp extends FetchApp {
  routes: unknown[];
}

export async function loadHttpApp(spec: {
  file: string;
  exportName: string;
  origin: string;
}): Promise<MountableApp> {
  const where = `${spec.origin}: ${spec.file}, export "${spec.exportName}"`;
  try {
    await stat(spec.file);
  } catch (error) {
    throw new ConfigError(`${where}: the file does not exist or cannot be read.`, { cause: error });
  }
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(spec.file).href)) as Record<string, unknown>;
  } catch (error) {
    throw new ConfigError(`${where}: importing the module failed: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const app = module[spec.exportName];
  if (!isMountable(app)) {
    throw new ConfigError(
      `${where}: ${app === undefined ? "the module has no such export" : "the export is not a Hono app"}; export a \`new Hono()\` with its routes.`,
    );
  }
  return app;
}

function isMountable(value: unknown): value is MountableApp {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof Reflect.get(value, "fetch") === "function" &&
    Array.isArray(Reflect.get(value, "routes"))
  );
}

/** `custom` first, then `fawn` for whatever `custom` leaves unanswered. */
export function withCustomRoutes<E extends Env>(custom: MountableApp, fawn: Hono<E>): Hono<E> {
  const root = new Hono<E>();
  // `route` keeps the custom app's routes, middlewares and error handler in order.
  root.route("/", custom as unknown as Hono<E>);
  root.all("*", async (c) => fawn.fetch(await forwardedRequest(c.req), c.env));
  return root;
}

/**
 * The request Fawn answers. A custom middleware that read the body consumed the raw stream; Hono
 * keeps what it read (the parsed JSON is the very object the middleware may have changed), so
 * Fawn gets that, as the LangGraph server does.
 */
async function forwardedRequest(req: HonoRequest): Promise<Request> {
  const { raw, bodyCache } = req;
  if (!raw.bodyUsed) return raw;
  let body: string | ArrayBuffer | null = null;
  if (bodyCache.json) body = JSON.stringify(await bodyCache.json);
  else if (bodyCache.text) body = await bodyCache.text;
  else if (bodyCache.arrayBuffer) body = await bodyCache.arrayBuffer;
  const headers = new Headers(raw.headers);
  headers.delete("content-length");
  return new Request(raw.url, { method: raw.method, headers, body, signal: raw.signal });
}
