import { isFawnError, StoreError, ValidationError } from "../../core/errors.js";

const MAX_CAUSE_DEPTH = 8;

/** The error and its `cause` chain (bounded, cycle-safe). */
function* causeChain(error: unknown): Generator<unknown> {
  const seen = new Set<unknown>();
  let current: unknown = error;
  for (
    let depth = 0;
    depth < MAX_CAUSE_DEPTH && current !== undefined && current !== null;
    depth++
  ) {
    if (seen.has(current)) return;
    seen.add(current);
    yield current;
    current = typeof current === "object" && "cause" in current ? current.cause : undefined;
  }
}

function codeOf(node: unknown): string | null {
  if (typeof node !== "object" || node === null || !("code" in node)) return null;
  return typeof node.code === "string" ? node.code : null;
}

function messageOf(node: unknown): string {
  return node instanceof Error ? node.message : "";
}

/**
 * A unique-constraint violation anywhere in the cause chain: PostgreSQL `23505`, SQLite
 * `SQLITE_CONSTRAINT_UNIQUE`/`_PRIMARYKEY`. The message fallback applies only to nodes that
 * already carry a SQLite constraint code, so an unrelated error mentioning "UNIQUE" never counts.
 */
export function isUniqueViolation(error: unknown): boolean {
  for (const node of causeChain(error)) {
    const code = codeOf(node);
    if (code === null) continue;
    if (code === "23505") return true;
    if (code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY") return true;
    if (
      code.startsWith("SQLITE_CONSTRAINT") &&
      messageOf(node).includes("UNIQUE constraint failed")
    ) {
      return true;
    }
  }
  return false;
}

/** SQLite's "database is busy/locked" family: safe to retry, nothing was done. */
export function isSqliteBusy(error: unknown): boolean {
  for (const node of causeChain(error)) {
    const code = codeOf(node);
    if (code !== null && (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"))) {
      return true;
    }
  }
  return false;
}

/**
 * A table that should exist does not (PostgreSQL 42P01 undefined_table, SQLite "no such
 * table"): the database is reachable but its schema is gone, e.g. dropped and created again.
 */
export function isMissingSchema(error: unknown): boolean {
  for (const node of causeChain(error)) {
    if (codeOf(node) === "42P01") return true;
    if (messageOf(node).startsWith("no such table")) return true;
  }
  return false;
}

/**
 * PostgreSQL refusing a character (NUL in text or jsonb: 22P05 untranslatable_character, 22021
 * character_not_in_repertoire). That is bad input, not an unavailable store.
 */
function isUnstorableCharacter(error: unknown): boolean {
  for (const node of causeChain(error)) {
    const code = codeOf(node);
    if (code === "22P05" || code === "22021") return true;
  }
  return false;
}

/**
 * Fawn errors pass through; unstorable characters become a ValidationError; any other driver
 * error becomes a StoreError that keeps the original as cause.
 */
export function toStoreError(error: unknown, action: string): Error {
  if (isFawnError(error)) return error;
  const detail = error instanceof Error ? error.message : String(error);
  if (isUnstorableCharacter(error)) {
    return new ValidationError(
      `Cannot ${action}: a value contains a character the database cannot store (${detail}).`,
      { cause: error },
    );
  }
  return new StoreError(`SQL store could not ${action}: ${detail}`, { cause: error });
}

/** Runs `fn`, turning whatever it throws into a store error for `action` (see `toStoreError`). */
export async function withStoreErrors<T>(action: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw toStoreError(error, action);
  }
}
