import { DOCUMENT_VALUE_MAX_CHARS } from "../../../ports/document-store.js";

/** A document value as stored (JSON text), refusing one over the size bound. */
export function encodeDocumentValue(value: Record<string, unknown>): string {
  const text = JSON.stringify(value);
  if (text.length > DOCUMENT_VALUE_MAX_CHARS) {
    throw new RangeError(
      `document value is ${text.length} characters; at most ${DOCUMENT_VALUE_MAX_CHARS} are kept`,
    );
  }
  return text;
}
