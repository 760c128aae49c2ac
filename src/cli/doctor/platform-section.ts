import { openStores } from "../../app/create-fawn.js";
import { databasePoolOptions } from "../../core/config/database-schema.js";
import type { FawnConfig } from "../../core/config/schema.js";
import { describeError } from "../../core/errors.js";
import { describeSandboxProviders } from "../../sandbox/index.js";
import type { DoctorItem, DoctorSection } from "./doctor-report.js";

/** Hide credentials in a connection URL before it is printed. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:@/]+):([^@/]+)@/, "//$1:***@");
}

async function checkDatabase(config: FawnConfig): Promise<DoctorItem> {
  const url = config.database.url;
  try {
    const stores = await openStores(
      url,
      config.home,
      undefined,
      databasePoolOptions(config.database),
    );
    await stores.runs.get("doctor-probe");
    await stores.close();
    return { status: "ok", name: "database", detail: `${redactUrl(url)} (migrated, reachable)` };
  } catch (error) {
    return {
      status: "fail",
      name: "database",
      detail: `${redactUrl(url)}: ${describeError(error)}`,
      hint: "check database.url (or FAWN_DATABASE_URL) and that the server is up",
    };
  }
}

async function checkRedis(url: string | undefined): Promise<DoctorItem> {
  if (!url) {
    return {
      status: "ok",
      name: "stream bridge",
      detail: "in-memory (single process; set FAWN_REDIS_URL to share runs across processes)",
    };
  }
  const { Redis } = await import("ioredis");
  const client = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    connectTimeout: 3000,
  });
  try {
    await client.connect();
    await client.ping();
    return { status: "ok", name: "stream bridge", detail: `Redis at ${redactUrl(url)}` };
  } catch (error) {
    return {
      status: "fail",
      name: "stream bridge",
      detail: `Redis at ${redactUrl(url)}: ${describeError(error)}`,
      hint: "start Redis or fix stream_bridge.redis_url / FAWN_REDIS_URL",
    };
  } finally {
    client.disconnect();
  }
}

/** Database, stream bridge and sandbox: what every run needs. */
export async function platformSection(config: FawnConfig): Promise<DoctorSection> {
  const [database, bridge, sandbox] = await Promise.all([
    checkDatabase(config),
    checkRedis(config.stream_bridge.redis_url),
    describeSandboxProviders(config.sandbox),
  ]);
  const sandboxItem: DoctorItem = {
    status: sandbox.active !== null ? "ok" : "fail",
    name: "sandbox",
    detail: sandbox.summary.replace(/^sandbox:\s*/, ""),
  };
  if (sandbox.hint) sandboxItem.hint = sandbox.hint;
  return {
    title: "platform",
    items: [database, bridge, sandboxItem],
    notes: sandbox.providers.map(
      (provider) =>
        `sandbox ${provider.kind}: ${provider.available ? "works" : "unavailable"} — ${provider.detail}`,
    ),
  };
}
