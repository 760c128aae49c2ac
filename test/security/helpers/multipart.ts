import { randomBytes } from "node:crypto";

export interface RawPart {
  /** Default `files`. */
  field?: string;
  /** Written as raw UTF-8 bytes into `filename="…"`; omitted when undefined. */
  filename?: string;
  /** Written as `filename*=UTF-8''<percent-encoded>` (RFC 5987), which wins over `filename`. */
  filenameStar?: string;
  content: string | Uint8Array;
}

/**
 * A multipart/form-data body built byte by byte, so a test controls exactly what name the
 * server parses (FormData escapes quotes and newlines and some clients strip paths).
 */
export function multipartBody(parts: RawPart[]): { body: Buffer; contentType: string } {
  const boundary = `----fawn-test-${randomBytes(8).toString("hex")}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let disposition = `form-data; name="${part.field ?? "files"}"`;
    if (part.filename !== undefined) disposition += `; filename="${part.filename}"`;
    if (part.filenameStar !== undefined) {
      disposition += `; filename*=UTF-8''${encodeURIComponent(part.filenameStar)}`;
    }
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: ${disposition}\r\nContent-Type: application/octet-stream\r\n\r\n`,
        "utf8",
      ),
      typeof part.content === "string"
        ? Buffer.from(part.content, "utf8")
        : Buffer.from(part.content),
      Buffer.from("\r\n", "utf8"),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`, "utf8"));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
