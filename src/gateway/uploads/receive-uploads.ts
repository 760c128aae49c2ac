import { Readable, Transform, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeWebReadableStream } from "node:stream/web";
import busboy from "busboy";
import type { UploadsConfig } from "../../core/config/schema.js";
import { BadRequestError, isFawnError, PayloadTooLargeError } from "../../core/errors.js";
import type { StagedUpload, UploadFolder } from "./upload-folder.js";
import { checkUploadName } from "./upload-name.js";

/** The multipart field files travel in (the reference's `files`). */
export const FILES_FIELD = "files";
/** Room for part headers and boundaries beyond the file bytes themselves. */
const PART_OVERHEAD_BYTES = 16 * 1024;
const BASE_OVERHEAD_BYTES = 1024 * 1024;
/** Non-file fields are ignored; these bound what a client can make us parse for them. */
const MAX_OTHER_FIELDS = 20;

export type UploadLimits = Pick<UploadsConfig, "max_files" | "max_file_size" | "max_total_size">;

export interface ReceivedUpload {
  filename: string;
  /** The name the client sent, when a duplicate in the same request was renamed. */
  originalFilename: string | null;
  size: number;
  staged: StagedUpload;
}

/**
 * Streams a `multipart/form-data` request into staging files of `folder`, enforcing the limits
 * as bytes arrive: a file over `max_file_size` or a request over `max_total_size` stops being
 * written at once, its staging file is removed, the rest of the (size-bounded) body is read and
 * dropped, and the request fails with 413. Any failure removes every staging file of the
 * request, so the folder never holds part of an upload; on success the caller publishes them.
 */
export async function receiveUploads(
  request: Request,
  folder: UploadFolder,
  limits: UploadLimits,
): Promise<ReceivedUpload[]> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    throw new BadRequestError(
      `Send the files as multipart/form-data in the field "${FILES_FIELD}" (got content type "${contentType.slice(0, 100)}").`,
    );
  }
  const maxBodyBytes =
    limits.max_total_size +
    BASE_OVERHEAD_BYTES +
    (limits.max_files + MAX_OTHER_FIELDS) * PART_OVERHEAD_BYTES;
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (declared > maxBodyBytes) throw tooLargeTotal(limits);
  if (request.body === null) throw noFiles();

  const receiver = new UploadReceiver(folder, limits);
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      // Names are validated, never silently cut down to their last segment.
      preservePath: true,
      defParamCharset: "utf8",
      limits: {
        files: limits.max_files,
        fields: MAX_OTHER_FIELDS,
        fieldSize: 8 * 1024,
        parts: limits.max_files + MAX_OTHER_FIELDS,
        headerPairs: 50,
      },
    });
  } catch (error) {
    throw new BadRequestError(`Malformed multipart request: ${describe(error)}.`);
  }
  parser.on("file", (field, stream, info) => receiver.receive(field, stream, info.filename));
  parser.on("filesLimit", () =>
    receiver.fail(
      new PayloadTooLargeError(
        `Too many files: at most ${limits.max_files} per request (uploads.max_files).`,
      ),
    ),
  );
  parser.on("partsLimit", () =>
    receiver.fail(new BadRequestError("Too many multipart parts; send only the files.")),
  );

  const body = Readable.fromWeb(request.body as NodeWebReadableStream<Uint8Array>);
  try {
    await pipeline(
      body,
      byteCap(maxBodyBytes, () => tooLargeTotal(limits)),
      parser,
    );
  } catch (error) {
    receiver.fail(
      isFawnError(error)
        ? error
        : new BadRequestError(`Malformed multipart request: ${describe(error)}.`),
    );
  }
  return receiver.finish();
}

/** Collects the files of one request; the first failure wins and voids the rest. */
class UploadReceiver {
  /** One slot per accepted part, in arrival order (staging may finish out of order). */
  private readonly slots: Array<ReceivedUpload | null> = [];
  private readonly pending: Array<Promise<void>> = [];
  private readonly taken = new Set<string>();
  private failure: unknown = null;
  private totalBytes = 0;

  constructor(
    private readonly folder: UploadFolder,
    private readonly limits: UploadLimits,
  ) {}

  fail(error: unknown): void {
    if (this.failure === null) this.failure = error;
  }

  receive(field: string, stream: Readable, rawName: string | undefined): void {
    // A broken body destroys the part stream with an error, possibly before anyone reads it;
    // the read loop (or the pipeline) reports it, so it must not surface as an uncaught error.
    stream.on("error", () => undefined);
    this.pending.push(this.write(field, stream, rawName));
  }

  async finish(): Promise<ReceivedUpload[]> {
    await Promise.allSettled(this.pending);
    const received = this.slots.filter((file): file is ReceivedUpload => file !== null);
    if (this.failure === null && received.length === 0) this.fail(noFiles());
    if (this.failure !== null) {
      await Promise.all(received.map((file) => file.staged.discard()));
      throw this.failure;
    }
    return received;
  }

  private async write(field: string, stream: Readable, rawName: string | undefined): Promise<void> {
    // Claimed before any await, so names are given out in the order the parts arrived.
    const names = this.claim(field, rawName);
    if (names === null) {
      stream.resume();
      return;
    }
    const slot = this.slots.push(null) - 1;
    let staged: StagedUpload;
    try {
      staged = await this.folder.stage();
    } catch (error) {
      this.fail(error);
      stream.resume();
      return;
    }
    const file: ReceivedUpload = { ...names, size: 0, staged };
    this.slots[slot] = file;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        // After a failure the rest of the body is read and dropped, so the client gets its answer.
        if (this.failure === null) await this.accept(file, chunk);
      }
    } catch (error) {
      // Only the part stream throws here (disk failures are caught in accept): a broken body.
      this.fail(new BadRequestError(`Malformed multipart request: ${describe(error)}.`));
    }
    if (this.failure === null) await staged.finish().catch((error: unknown) => this.fail(error));
    if (this.failure !== null) await staged.discard();
  }

  /** Counts a chunk against the limits and writes it, or records why the request fails. */
  private async accept(file: ReceivedUpload, chunk: Buffer): Promise<void> {
    file.size += chunk.length;
    this.totalBytes += chunk.length;
    if (file.size > this.limits.max_file_size) {
      this.fail(
        new PayloadTooLargeError(
          `File too large: ${file.filename} is over ${this.limits.max_file_size} bytes (uploads.max_file_size).`,
        ),
      );
    } else if (this.totalBytes > this.limits.max_total_size) {
      this.fail(tooLargeTotal(this.limits));
    } else {
      await file.staged.write(chunk).catch((error: unknown) => this.fail(error));
    }
  }

  /** The stored name for a part, or null when the part is not an upload to keep. */
  private claim(
    field: string,
    rawName: string | undefined,
  ): { filename: string; originalFilename: string | null } | null {
    if (this.failure !== null) return null;
    if (field !== FILES_FIELD) {
      this.fail(
        new BadRequestError(
          `Unexpected file field "${field.slice(0, 100)}"; send files in the multipart field "${FILES_FIELD}".`,
        ),
      );
      return null;
    }
    // A file input left empty arrives as a part without a name (the reference skips it too).
    if (rawName === undefined || rawName === "") return null;
    try {
      const name = checkUploadName(rawName);
      // A renamed duplicate can outgrow the length limit, so it is checked again.
      const filename = checkUploadName(uniqueName(name, this.taken));
      return { filename, originalFilename: filename === name ? null : name };
    } catch (error) {
      this.fail(error);
      return null;
    }
  }
}

/** `name`, or `stem_1.ext`, `stem_2.ext`… when the same request already used it. */
function uniqueName(name: string, taken: Set<string>): string {
  let candidate = name;
  const dot = name.lastIndexOf(".");
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ""];
  for (let n = 1; taken.has(candidate); n += 1) candidate = `${stem}_${n}${extension}`;
  taken.add(candidate);
  return candidate;
}

/** Passes bytes through until `maxBytes`, then fails: the cap for bodies of unknown length. */
function byteCap(maxBytes: number, error: () => Error): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      seen += chunk.length;
      if (seen > maxBytes) callback(error());
      else callback(null, chunk);
    },
  });
}

function tooLargeTotal(limits: UploadLimits): PayloadTooLargeError {
  return new PayloadTooLargeError(
    `Upload too large: the files of one request may total ${limits.max_total_size} bytes (uploads.max_total_size).`,
  );
}

function noFiles(): BadRequestError {
  return new BadRequestError(
    `No files provided; send one or more files in the multipart field "${FILES_FIELD}".`,
  );
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
