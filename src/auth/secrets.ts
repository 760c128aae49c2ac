import { randomBytes, timingSafeEqual, webcrypto } from "node:crypto";
import { promisify } from "node:util";

const randomBytesAsync = promisify(randomBytes);
const encoder = new TextEncoder();

/** A random secret of `bytes` bytes as base64url (256 bits by default). */
export async function newSecret(bytes = 32): Promise<string> {
  return (await randomBytesAsync(bytes)).toString("base64url");
}

/**
 * SHA-256 hex through WebCrypto, which is asynchronous. A fast hash is enough for our secrets: they
 * are 256-bit random values, so there is nothing to brute-force (passwords use scrypt instead).
 */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await webcrypto.subtle.digest("SHA-256", encoder.encode(text));
  return Buffer.from(digest).toString("hex");
}

/** Equality in time independent of where the strings differ (their lengths are not secret). */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, "utf8");
  const right = Buffer.from(b, "utf8");
  return left.length === right.length && timingSafeEqual(left, right);
}
