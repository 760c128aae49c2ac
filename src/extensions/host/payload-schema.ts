import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";

/*
 * Plugin tools describe their payload with an inline JSON Schema (Draft 2020-12). One validator
 * instance compiles them: at load (a schema that does not compile refuses the plugin) and for the
 * tool that checks each call's payload.
 */

const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });

const REFERENCE_KEYWORDS = new Set(["$ref", "$dynamicRef", "$recursiveRef"]);

/** Why `schema` cannot describe a plugin tool's payload, or null when it can. */
export function payloadSchemaProblem(schema: unknown): string | null {
  if (!isRecord(schema)) return "inputSchema must be a JSON Schema object";
  if (schema.type !== "object") return 'inputSchema must have type "object" (payloads are objects)';
  const reference = findReference(schema);
  if (reference) return `inputSchema must be inline: it uses ${reference}`;
  try {
    ajv.compile(schema);
  } catch (error) {
    return `inputSchema is not a valid JSON Schema: ${error instanceof Error ? error.message : String(error)}`;
  }
  return null;
}

/** A payload check for a schema `payloadSchemaProblem` accepted: null, or why the payload is refused. */
export function compilePayloadCheck(
  schema: Record<string, unknown>,
): (payload: unknown) => string | null {
  const validate: ValidateFunction = ajv.compile(schema);
  return (payload) =>
    validate(payload) ? null : ajv.errorsText(validate.errors, { dataVar: "payload" });
}

/** The first `$ref`-like keyword anywhere in the schema (iterative: schemas may be deep). */
function findReference(schema: Record<string, unknown>): string | null {
  const stack: unknown[] = [schema];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (Array.isArray(node)) {
      stack.push(...node);
      continue;
    }
    if (!isRecord(node)) continue;
    for (const [key, value] of Object.entries(node)) {
      if (REFERENCE_KEYWORDS.has(key)) return key;
      stack.push(value);
    }
  }
  return null;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
