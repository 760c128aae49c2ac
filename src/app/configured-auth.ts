import { type AuthServices, createAuthServices } from "../auth/auth-services.js";
import { loadConfig } from "../core/config/load-config.js";
import type { FawnConfig } from "../core/config/schema.js";
import { ConfigError } from "../core/errors.js";
import { openSqlDatabase } from "../stores/sql/database.js";
import { SqlUserStore } from "../stores/sql/user-store.js";

/**
 * Runs `fn` against the users of the configured database (config.yaml + FAWN_* environment), the
 * same one `fawn serve` uses, and closes it afterwards. For administration from the CLI; opens
 * only the database (migrated), not the run-time around it.
 */
export async function withConfiguredAuth<T>(
  fn: (services: AuthServices, config: FawnConfig) => Promise<T>,
): Promise<T> {
  const { config } = await loadConfig();
  const url = config.database.url;
  if (url === "memory:" || url === "memory") {
    throw new ConfigError(
      "database.url is memory:, so users would vanish with this command; set FAWN_DATABASE_URL or database.url to the server's database.",
    );
  }
  const database = await openSqlDatabase(url);
  try {
    return await fn(
      createAuthServices(new SqlUserStore(database), { config: config.auth }),
      config,
    );
  } finally {
    await database.close();
  }
}
