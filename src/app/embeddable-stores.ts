import type { FawnStores } from "../ports/fawn-stores.js";
import type { SqlDatabase } from "../stores/sql/database.js";

/**
 * A store set `createFawn` can put its defaults beside: SQL stores name their database (the
 * checkpointer and login counters then live in it), process-memory stores name none.
 */
export type EmbeddableStores = FawnStores<SqlDatabase> | FawnStores<null>;
