import { Redis } from "ioredis";

/** `commands`: the bridge's one shared connection. `subscriber`: one per blocked subscriber. */
export type RedisConnectionRole = "commands" | "subscriber";

/** Opens a new connection. The bridge owns every connection it opens and closes them itself. */
export type RedisClientFactory = (role: RedisConnectionRole) => Redis;

/** Client-side guard for a blocking read on a socket that died silently (no close event). */
const BLOCKING_READ_GUARD_MS = 30_000;

export function urlClientFactory(url: string): RedisClientFactory {
  return (role) =>
    new Redis(url, {
      // Names show up in CLIENT LIST, so an operator can tell the bridge's connections apart.
      connectionName: `fawn-stream-bridge-${role}`,
      // Resolves a stuck blocking read as a timeout (a heartbeat); the next snapshot decides.
      ...(role === "subscriber" ? { blockingTimeout: BLOCKING_READ_GUARD_MS } : {}),
    });
}

/**
 * Opens a connection through `factory` and keeps ioredis from printing "Unhandled error event"
 * for every failed reconnect: failures reach callers as rejected commands, which is where they
 * are handled.
 */
export function openConnection(factory: RedisClientFactory, role: RedisConnectionRole): Redis {
  const client = factory(role);
  client.on("error", () => undefined);
  return client;
}

/** Graceful when connected (pending replies arrive first), immediate otherwise. */
export async function closeConnection(client: Redis): Promise<void> {
  if (client.status === "ready") {
    await client.quit().catch(() => client.disconnect());
    return;
  }
  client.disconnect();
}
