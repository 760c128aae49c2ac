import { createHash } from "node:crypto";

/** One element of a list channel, serialized on its own and named by its content. */
export interface EncodedElement {
  ref: string;
  type: string;
  data: Uint8Array;
}

/**
 * The ref of a serialized element: 128 bits of SHA-256 over its type and bytes, base64url (22
 * characters). Content addressing (rather than the message id) also covers a message edited in
 * place under the same id, and list elements that are not messages at all.
 */
export function contentRef(type: string, data: Uint8Array): string {
  return createHash("sha256")
    .update(type)
    .update("\u0000")
    .update(data)
    .digest("base64url")
    .slice(0, 22);
}
