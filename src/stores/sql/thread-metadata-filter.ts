import { type Expression, type SqlBool, sql } from "kysely";
import type { SqlDialectName } from "./sql-dialect-name.js";

/**
 * SQL conditions for "metadata[key] equals value (JSON equality)". `exact` says whether the SQL
 * alone decides the match; when it does not, the caller must still compare in JS (and then page
 * in JS too, since SQL LIMIT/OFFSET would count rows that JS later drops).
 *
 * - PostgreSQL: one containment `metadata_json @> filter::jsonb` for the whole filter, which the
 *   GIN index `ix_threads_meta_metadata` serves. For a top-level scalar, containment is JSON
 *   equality (1 = 1.0, `"x"` never matches `["x"]`); for an object or array value it is weaker
 *   (`{"a":{"x":1,"y":2}}` contains `{"a":{"x":1}}`), so such keys also get the equality
 *   `metadata_json -> key = value::jsonb` (key order ignored), the same as `isDeepStrictEqual`
 *   on parsed JSON. Equality implies containment, so the two together are exact.
 * - SQLite: `json_extract` gives scalars as SQL values, so strings, numbers, booleans and null
 *   compare exactly (with `json_type` telling "1" from 1). Objects and arrays come back as JSON
 *   text whose key order is the writer's, so they are left to JS.
 */
export interface MetadataFilter {
  conditions: Expression<SqlBool>[];
  exact: boolean;
}

/** Keys `$."…"` can quote without escaping; anything else is compared in JS. */
const SIMPLE_KEY = /^[^"\\]+$/;

function sqliteCondition(key: string, value: unknown): Expression<SqlBool> | null {
  if (!SIMPLE_KEY.test(key)) return null;
  const path = `$."${key}"`;
  const type = sql`json_type(metadata_json, ${path})`;
  if (value === null) return sql<SqlBool>`${type} = 'null'`;
  if (value === true) return sql<SqlBool>`${type} = 'true'`;
  if (value === false) return sql<SqlBool>`${type} = 'false'`;
  if (typeof value === "string") {
    return sql<SqlBool>`(${type} = 'text' and json_extract(metadata_json, ${path}) = ${value})`;
  }
  if (typeof value === "number" && Number.isFinite(value)) {
    return sql<SqlBool>`(${type} in ('integer', 'real') and json_extract(metadata_json, ${path}) = ${value})`;
  }
  return null;
}

function postgresConditions(wanted: Record<string, unknown>): MetadataFilter {
  const contained: Record<string, unknown> = {};
  const conditions: Expression<SqlBool>[] = [];
  let exact = true;
  for (const [key, value] of Object.entries(wanted)) {
    const json = JSON.stringify(value);
    // undefined (and functions) have no JSON form; leave such a key to the JS comparison.
    if (json === undefined) {
      exact = false;
      continue;
    }
    // defineProperty: a key such as "__proto__" must stay a plain key of the filter.
    Object.defineProperty(contained, key, { value, enumerable: true });
    if (typeof value === "object" && value !== null) {
      conditions.push(sql<SqlBool>`metadata_json -> ${key} = ${json}::jsonb`);
    }
  }
  if (Object.keys(contained).length > 0) {
    conditions.unshift(sql<SqlBool>`metadata_json @> ${JSON.stringify(contained)}::jsonb`);
  }
  return { conditions, exact };
}

export function metadataFilter(
  dialect: SqlDialectName,
  wanted: Record<string, unknown> | undefined,
): MetadataFilter {
  if (dialect === "postgres") return postgresConditions(wanted ?? {});
  const conditions: Expression<SqlBool>[] = [];
  let exact = true;
  for (const [key, value] of Object.entries(wanted ?? {})) {
    const condition = sqliteCondition(key, value);
    if (condition === null) exact = false;
    else conditions.push(condition);
  }
  return { conditions, exact };
}
