import { promisify } from "node:util";
import { crc32, inflateRaw } from "node:zlib";

const inflateRawAsync = promisify(inflateRaw);

/** Bounds every read of an archive; each is checked before the bytes it guards are inflated. */
export interface ZipLimits {
  /** Entries of the central directory (files and folders). */
  maxEntries: number;
  /** Sum of the unpacked sizes of every file. */
  maxTotalBytes: number;
  /** An entry over `RATIO_FLOOR_BYTES` unpacked may be at most this many times its packed size. */
  maxCompressionRatio: number;
}

/** Small entries compress well by nature (a page of spaces); only large ones are judged by ratio. */
export const RATIO_FLOOR_BYTES = 64 * 1024;

export interface ZipEntry {
  /** The name as stored (`/`-separated; a folder ends with `/`). */
  name: string;
  isDirectory: boolean;
  isSymlink: boolean;
  /** Unix permission bits when the archive carries them, else null. */
  unixMode: number | null;
  compressedSize: number;
  size: number;
  /** Unpacks the entry (bounded by its declared size, CRC checked). */
  read(): Promise<Buffer>;
}

/** Why an archive was refused; the message is a sentence for the person who sent it. */
export class ZipFormatError extends Error {
  constructor(
    message: string,
    readonly reason:
      | "not_zip"
      | "unsupported"
      | "corrupt"
      | "too_many_entries"
      | "too_large"
      | "bomb",
  ) {
    super(message);
    this.name = "ZipFormatError";
  }
}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_SIZE = 22;
const CENTRAL_SIZE = 46;
const LOCAL_SIZE = 30;
const MAX_COMMENT = 0xffff;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const S_IFDIR = 0o040000;
/** "Version made by" host values whose external attributes hold a Unix mode (Unix, macOS). */
const UNIX_HOSTS = new Set([3, 19]);

/**
 * Reads the central directory of a ZIP archive held in memory and answers its entries, refusing
 * what a skill never needs and what could exhaust the server: ZIP64, encryption, methods other
 * than stored and deflate, multi-disk archives, more entries or more unpacked bytes than the
 * limits, and entries whose declared ratio marks a zip bomb. The declared sizes are trusted only
 * as upper bounds: unpacking stops at the declared size and the CRC must match.
 */
export function readZipEntries(archive: Buffer, limits: ZipLimits): ZipEntry[] {
  const eocd = findEndOfCentralDirectory(archive);
  const diskEntries = archive.readUInt16LE(eocd + 8);
  const totalEntries = archive.readUInt16LE(eocd + 10);
  const centralSize = archive.readUInt32LE(eocd + 12);
  const centralOffset = archive.readUInt32LE(eocd + 16);
  if (archive.readUInt16LE(eocd + 4) !== 0 || diskEntries !== totalEntries) {
    throw new ZipFormatError("Multi-part ZIP archives are not supported.", "unsupported");
  }
  if (totalEntries === 0xffff || centralOffset === 0xffffffff || centralSize === 0xffffffff) {
    throw new ZipFormatError("ZIP64 archives are not supported; a skill is small.", "unsupported");
  }
  if (totalEntries > limits.maxEntries) {
    throw new ZipFormatError(
      `The archive has ${totalEntries} entries; at most ${limits.maxEntries} are accepted.`,
      "too_many_entries",
    );
  }
  if (centralOffset + centralSize > eocd) {
    throw new ZipFormatError("The archive's central directory is damaged.", "corrupt");
  }
  const entries: ZipEntry[] = [];
  let totalBytes = 0;
  let at = centralOffset;
  for (let index = 0; index < totalEntries; index += 1) {
    const entry = readCentralEntry(archive, at, eocd);
    at = entry.next;
    totalBytes += entry.size;
    if (totalBytes > limits.maxTotalBytes) {
      throw new ZipFormatError(
        `The archive unpacks to more than ${limits.maxTotalBytes} bytes, the limit for a skill.`,
        "too_large",
      );
    }
    if (
      entry.size > RATIO_FLOOR_BYTES &&
      entry.size > entry.compressedSize * limits.maxCompressionRatio
    ) {
      throw new ZipFormatError(
        `Entry '${entry.name}' unpacks to ${entry.size} bytes from ${entry.compressedSize}: ` +
          `more than ${limits.maxCompressionRatio} times its packed size, refused as a zip bomb.`,
        "bomb",
      );
    }
    entries.push(entry);
  }
  return entries;
}

function findEndOfCentralDirectory(archive: Buffer): number {
  if (archive.length < EOCD_SIZE || archive.readUInt32LE(0) !== LOCAL_SIGNATURE) {
    // An empty ZIP starts with the end record itself; no skill is empty, so refuse it too.
    throw new ZipFormatError("The file is not a ZIP archive (a .skill file is a ZIP).", "not_zip");
  }
  const lowest = Math.max(0, archive.length - EOCD_SIZE - MAX_COMMENT);
  for (let at = archive.length - EOCD_SIZE; at >= lowest; at -= 1) {
    if (
      archive.readUInt32LE(at) === EOCD_SIGNATURE &&
      at + EOCD_SIZE + archive.readUInt16LE(at + 20) === archive.length
    ) {
      return at;
    }
  }
  throw new ZipFormatError(
    "The file is not a ZIP archive (no end of central directory).",
    "not_zip",
  );
}

function readCentralEntry(archive: Buffer, at: number, limit: number): ZipEntry & { next: number } {
  if (at + CENTRAL_SIZE > limit || archive.readUInt32LE(at) !== CENTRAL_SIGNATURE) {
    throw new ZipFormatError("The archive's central directory is damaged.", "corrupt");
  }
  const madeBy = archive.readUInt16LE(at + 4) >> 8;
  const flags = archive.readUInt16LE(at + 8);
  const method = archive.readUInt16LE(at + 10);
  const crc = archive.readUInt32LE(at + 16);
  const compressedSize = archive.readUInt32LE(at + 20);
  const size = archive.readUInt32LE(at + 24);
  const nameLength = archive.readUInt16LE(at + 28);
  const extraLength = archive.readUInt16LE(at + 30);
  const commentLength = archive.readUInt16LE(at + 32);
  const external = archive.readUInt32LE(at + 38);
  const localOffset = archive.readUInt32LE(at + 42);
  const next = at + CENTRAL_SIZE + nameLength + extraLength + commentLength;
  if (next > limit)
    throw new ZipFormatError("The archive's central directory is damaged.", "corrupt");
  const nameBytes = archive.subarray(at + CENTRAL_SIZE, at + CENTRAL_SIZE + nameLength);
  const name = nameBytes.toString("utf8");
  if ((flags & 0x1) !== 0) {
    throw new ZipFormatError(
      `Entry '${name}' is encrypted; send an unencrypted archive.`,
      "unsupported",
    );
  }
  if (method !== 0 && method !== 8) {
    throw new ZipFormatError(
      `Entry '${name}' uses compression method ${method}; only stored and deflate are supported.`,
      "unsupported",
    );
  }
  if (compressedSize === 0xffffffff || size === 0xffffffff || localOffset === 0xffffffff) {
    throw new ZipFormatError("ZIP64 archives are not supported; a skill is small.", "unsupported");
  }
  const mode = UNIX_HOSTS.has(madeBy) ? (external >>> 16) & 0xffff : 0;
  const isSymlink = (mode & S_IFMT) === S_IFLNK;
  const isDirectory = name.endsWith("/") || (mode & S_IFMT) === S_IFDIR || (external & 0x10) !== 0;
  const dataStart = localDataStart(archive, localOffset, nameBytes, compressedSize);
  return {
    name,
    isDirectory,
    isSymlink,
    unixMode: mode === 0 ? null : mode & 0o777,
    compressedSize,
    size,
    next,
    read: () =>
      unpack(archive.subarray(dataStart, dataStart + compressedSize), { name, method, size, crc }),
  };
}

/** Where an entry's data begins; its local header must agree with the central one. */
function localDataStart(
  archive: Buffer,
  offset: number,
  centralName: Buffer,
  compressedSize: number,
): number {
  if (offset + LOCAL_SIZE > archive.length || archive.readUInt32LE(offset) !== LOCAL_SIGNATURE) {
    throw new ZipFormatError("The archive's entries are damaged.", "corrupt");
  }
  const nameLength = archive.readUInt16LE(offset + 26);
  const extraLength = archive.readUInt16LE(offset + 28);
  const localName = archive.subarray(offset + LOCAL_SIZE, offset + LOCAL_SIZE + nameLength);
  // Two names for one entry let a checker and an extractor see different files.
  if (!localName.equals(centralName)) {
    throw new ZipFormatError("The archive names an entry differently in two places.", "corrupt");
  }
  const start = offset + LOCAL_SIZE + nameLength + extraLength;
  if (start + compressedSize > archive.length) {
    throw new ZipFormatError("The archive's entries are damaged.", "corrupt");
  }
  return start;
}

async function unpack(
  data: Buffer,
  entry: { name: string; method: number; size: number; crc: number },
): Promise<Buffer> {
  let output: Buffer;
  if (entry.method === 0) {
    output = data;
  } else {
    try {
      // One byte of slack: output longer than declared then shows as a size mismatch.
      output = await inflateRawAsync(data, { maxOutputLength: Math.max(1, entry.size + 1) });
    } catch {
      throw new ZipFormatError(
        `Entry '${entry.name}' does not unpack to its declared size; the archive is damaged.`,
        "corrupt",
      );
    }
  }
  if (output.length !== entry.size || crc32(output) >>> 0 !== entry.crc >>> 0) {
    throw new ZipFormatError(
      `Entry '${entry.name}' does not match its declared size and checksum; the archive is damaged.`,
      "corrupt",
    );
  }
  return output;
}
