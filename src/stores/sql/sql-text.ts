import { CompiledQuery } from "kysely";
import type { SqlDialectName } from "./sql-dialect-name.js";

const numberedTexts = new Map<string, string>();

/**
 * A hot statement written as SQL text instead of built by the query builder on every call:
 * building and compiling even a small UPDATE with Kysely costs ~50 µs of main-thread CPU (the
 * 37-column admission INSERT … SELECT ~185 µs) — more than the worker round trip that carries it.
 * Write `?` placeholders (never a `?` inside a literal); PostgreSQL gets `$1…$n`, computed once
 * per text.
 */
export function sqlStatement(
  dialect: SqlDialectName,
  text: string,
  params: readonly unknown[],
): CompiledQuery {
  if (dialect === "sqlite") return CompiledQuery.raw(text, [...params]);
  let numbered = numberedTexts.get(text);
  if (numbered === undefined) {
    let index = 0;
    numbered = text.replace(/\?/g, () => `$${++index}`);
    numberedTexts.set(text, numbered);
  }
  return CompiledQuery.raw(numbered, [...params]);
}

/** `('a', 'b')` for a fixed list of known words (statuses), to inline into SQL text. */
export function sqlWordList(words: readonly string[]): string {
  for (const word of words) {
    if (!/^[a-z_]+$/.test(word)) throw new Error(`Not a plain word: ${word}`);
  }
  return `(${words.map((word) => `'${word}'`).join(", ")})`;
}

/** Rows changed by an INSERT, UPDATE or DELETE run as raw SQL. */
export function affectedRows(result: { numAffectedRows?: bigint }): number {
  return Number(result.numAffectedRows ?? 0n);
}
