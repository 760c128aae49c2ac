import { z } from "zod";
import {
  FACT_CATEGORIES,
  FACT_CATEGORY_PATTERN,
  FACT_CONTENT_MAX_CHARS,
  type MemoryDocument,
  memoryDocumentSchema,
} from "../../agent/memory/memory-document.js";
import { ValidationError } from "../../core/errors.js";
import { parseWith } from "../http/validation.js";

/** Bounds of what a caller may store through the API. */
export const FACT_ID_MAX_CHARS = 128;
export const IMPORT_FACTS_MAX = 10_000;
export const SUMMARY_MAX_CHARS = 20_000;
/** Largest imported memory (JSON characters), well inside what the document store keeps. */
export const IMPORT_MAX_CHARS = 4 * 1024 * 1024;

const content = z
  .string()
  .trim()
  .min(1, "Memory fact content cannot be empty.")
  .max(FACT_CONTENT_MAX_CHARS);
/** The reference UI lets a person type any category; a plain label is kept as typed. */
const category = z
  .string()
  .trim()
  .regex(
    FACT_CATEGORY_PATTERN,
    `A category is 1–40 letters, digits, spaces, '_' or '-' (e.g. ${FACT_CATEGORIES.join(", ")}).`,
  );
const confidence = z
  .number()
  .min(0, "Invalid confidence value; must be between 0 and 1.")
  .max(1, "Invalid confidence value; must be between 0 and 1.");

/** `POST /memory/facts` (the reference's FactCreateRequest; extra fields are ignored as there). */
export const factCreateSchema = z.object({
  content,
  category: category.default("context"),
  confidence: confidence.default(0.5),
});

/** `PATCH /memory/facts/{id}`: omitted (or null) fields keep their value. */
export const factPatchSchema = z.object({
  content: content.nullish(),
  category: category.nullish(),
  confidence: confidence.nullish(),
});

/**
 * `POST /memory/import`: a whole memory document as `GET /memory/export` answers it. Unknown
 * categories read as `context`, as stored memory does; sizes are bounded and fact ids unique.
 */
export function parseMemoryImport(body: unknown): MemoryDocument {
  const memory = parseWith(memoryDocumentSchema, withSections(body), "body");
  if (memory.facts.length > IMPORT_FACTS_MAX) {
    throw new ValidationError(`An import holds at most ${IMPORT_FACTS_MAX} facts.`);
  }
  const ids = new Set<string>();
  for (const fact of memory.facts) {
    if (fact.id.length > FACT_ID_MAX_CHARS || fact.content.length > FACT_CONTENT_MAX_CHARS) {
      throw new ValidationError(
        `Fact ids are at most ${FACT_ID_MAX_CHARS} characters and contents at most ${FACT_CONTENT_MAX_CHARS}; '${fact.id.slice(0, 40)}' is longer.`,
      );
    }
    if (ids.has(fact.id)) {
      throw new ValidationError(`Fact id '${fact.id}' appears twice in the import.`);
    }
    ids.add(fact.id);
  }
  const sections = [...Object.values(memory.user), ...Object.values(memory.history)];
  if (sections.some((section) => section.summary.length > SUMMARY_MAX_CHARS)) {
    throw new ValidationError(`A summary is at most ${SUMMARY_MAX_CHARS} characters.`);
  }
  if (JSON.stringify(memory).length > IMPORT_MAX_CHARS) {
    throw new ValidationError(
      `An imported memory is at most ${IMPORT_MAX_CHARS} characters of JSON; import fewer facts.`,
    );
  }
  return memory;
}

/** The reference's import accepts a document without `user`/`history`; so does Fawn. */
function withSections(body: unknown): unknown {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
  return { user: {}, history: {}, ...body };
}

/** A fact id from the path; one longer than any stored id cannot exist. */
export function factIdOf(raw: string | undefined): string | null {
  if (raw === undefined || raw.length === 0 || raw.length > FACT_ID_MAX_CHARS) return null;
  return raw;
}
