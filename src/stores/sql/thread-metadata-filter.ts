import { type Expression, type SqlBool, sql } from "kysely";
import type { SqlDialectName } from "./sql-dialect-name.js";

/**
 * SQL conditions for "metadata[key] equals value (JSON equality)". `exact` says whether the SQL
 * alone decides the match; when it does not, the caller must still compare in JS (and then page
 * in JS too, since SQL LIMIT/OFFSET would count rows that JS later drops).
 *
 * - PostgreSQL: `metadata_json -> key = value::jsonb` is JSON equality (key order ignored,
 *   1 = 1.0), the same as `isDeepStrictEqual` on parsed JSON.
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

function postgresCondition(key: string, value: unknown): Expression<SqlBool> | null {
  const json = JSON.stringify(value);
  // undefined (and functions) have no JSON form; leave such a key to the JS comparison.
  if (json === undefined) return null;
  return sql<SqlBool>`metadata_json -> ${key} = ${json}::jsonb`;
}

export function metadataFilter(
  dialect: SqlDialectName,
  wanted: Record<string, unknown> | undefined,
): MetadataFilter {
  const conditions: Expression<SqlBool>[] = [];
  let exact = true;
  for (const [key, value] of Object.entries(wanted ?? {})) {
    const condition =
      dialect === "postgres" ? postgresCondition(key, value) : sqliteCondition(key, value);
    if (condition === null) exact = false;
    else conditions.push(condition);
  }
  return { conditions, exact };
}
