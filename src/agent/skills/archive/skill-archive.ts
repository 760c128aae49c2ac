import type { SkillInstallConfig } from "../../../core/config/skills-install-schema.js";
import { BadRequestError, PayloadTooLargeError } from "../../../core/errors.js";
import { type Logger, rootLogger } from "../../../core/logger.js";
import { SKILL_FILE } from "../skill.js";
import {
  checkSkillMarkdown,
  type SkillPackage,
  type SkillPackageFile,
} from "../stored/skill-package.js";
import { describeFindings, scanSkillContent } from "./skill-scan.js";
import { readZipEntries, type ZipEntry, ZipFormatError } from "./zip-reader.js";

/** Longest path of a file inside a skill, and deepest nesting. */
const MAX_PATH_LENGTH = 512;
const MAX_PATH_DEPTH = 16;

/** ELF, PE, Mach-O (32/64, both byte orders, fat): binaries a skill must not carry. */
const EXECUTABLE_MAGICS = [
  "7f454c46",
  "4d5a",
  "feedface",
  "feedfacf",
  "cefaedfe",
  "cffaedfe",
  "cafebabe",
  "bebafeca",
  "cafebabf",
  "bfbafeca",
].map((hex) => Buffer.from(hex, "hex"));

const NESTED_ARCHIVE = /\.(?:zip|tar|tgz|tar\.gz|tar\.bz2|tar\.xz|7z|rar|whl|skill)$/i;

export interface UnpackOptions {
  limits: SkillInstallConfig;
  /** `skill_scan.enabled`: run the content checks. */
  scan: boolean;
  logger?: Logger;
}

/**
 * A `.skill` archive → a validated skill package, entirely in memory: nothing is stored until
 * every entry has passed. Refused (400, or 413 for a limit): not a ZIP, an absolute path, `..`,
 * a colon or backslash in a name, a symlink entry, an executable binary, no SKILL.md at the
 * root (a single top folder is the root when it holds one), a nested SKILL.md, frontmatter the
 * reference's rules reject, and a content-scan finding. Hidden entries and `__MACOSX/` are dropped.
 */
export async function unpackSkillArchive(
  archive: Buffer,
  options: UnpackOptions,
): Promise<SkillPackage> {
  const logger = options.logger ?? rootLogger;
  if (archive.length > options.limits.max_archive_bytes) {
    throw new PayloadTooLargeError(
      `The archive is ${archive.length} bytes; at most ${options.limits.max_archive_bytes} are accepted (skills.install.max_archive_bytes).`,
    );
  }
  let entries: ZipEntry[];
  try {
    entries = readZipEntries(archive, {
      maxEntries: options.limits.max_files,
      maxTotalBytes: options.limits.max_total_bytes,
      maxCompressionRatio: options.limits.max_compression_ratio,
    });
  } catch (error) {
    throw asHttpError(error);
  }
  const kept: Array<{ segments: string[]; entry: ZipEntry }> = [];
  for (const entry of entries) {
    const segments = checkEntryPath(entry.name);
    if (entry.isSymlink) {
      throw new BadRequestError(
        `Archive entry '${entry.name}' is a symbolic link; skills may not contain links.`,
      );
    }
    if (segments.length === 0 || entry.isDirectory || isIgnored(segments)) continue;
    kept.push({ segments, entry });
  }
  const root = packageRoot(kept.map((file) => file.segments));
  const files: SkillPackageFile[] = [];
  let skillMd: Buffer | null = null;
  const seen = new Set<string>();
  for (const { segments, entry } of kept) {
    const path = segments.slice(root).join("/");
    if (seen.has(path)) throw new BadRequestError(`Archive holds '${path}' twice.`);
    seen.add(path);
    let data: Buffer;
    try {
      data = await entry.read();
    } catch (error) {
      throw asHttpError(error);
    }
    if (EXECUTABLE_MAGICS.some((magic) => data.subarray(0, magic.length).equals(magic))) {
      throw new BadRequestError(
        `Archive entry '${path}' is an executable binary; skills carry text and scripts only.`,
      );
    }
    if (path === SKILL_FILE) {
      skillMd = data;
      continue;
    }
    if (segments.at(-1) === SKILL_FILE) {
      throw new BadRequestError(
        `Archive holds a nested SKILL.md at '${path}'; keep exactly one, at the skill's root.`,
      );
    }
    if (NESTED_ARCHIVE.test(path)) logger.warn({ file: path }, "skill archive holds an archive");
    files.push({ path, mode: executableBit(entry.unixMode), data });
  }
  if (skillMd === null) {
    throw new BadRequestError(
      "The archive has no SKILL.md at its root (or inside its single top folder).",
    );
  }
  const content = decodeSkillMarkdown(skillMd);
  const manifest = checkSkillMarkdown(content, options.limits.max_skill_md_bytes);
  if (options.scan) {
    const findings = [
      ...scanSkillContent(SKILL_FILE, content),
      ...files.flatMap((file) => scanSkillContent(file.path, file.data)),
    ];
    if (findings.length > 0) {
      throw new BadRequestError(
        `Security scan blocked skill '${manifest.name}': ${describeFindings(findings)}. Remove them or set skill_scan.enabled: false.`,
        { details: { skill_name: manifest.name, findings } },
      );
    }
  }
  return { name: manifest.name, content, files };
}

/** A stored entry name → its path segments, or a refusal naming the entry. */
function checkEntryPath(name: string): string[] {
  const refuse = (why: string) =>
    new BadRequestError(`Archive entry '${name.slice(0, 200)}' ${why}; the archive is refused.`);
  if (name.includes("\0")) throw refuse("contains a NUL character");
  if (name.includes("\\")) throw refuse("uses a backslash; ZIP paths use /");
  if (name.startsWith("/") || /^[A-Za-z]:/.test(name)) throw refuse("is an absolute path");
  if (name.includes(":")) throw refuse("contains a colon");
  if (name.length > MAX_PATH_LENGTH) throw refuse(`is longer than ${MAX_PATH_LENGTH} characters`);
  const segments = name.split("/").filter((segment) => segment !== "" && segment !== ".");
  if (segments.includes("..")) throw refuse("leaves the skill folder (..)");
  if (segments.length > MAX_PATH_DEPTH) throw refuse(`nests deeper than ${MAX_PATH_DEPTH} folders`);
  return segments;
}

/** macOS metadata and dotfiles never reach a skill (the skills view skips hidden files too). */
function isIgnored(segments: readonly string[]): boolean {
  return segments[0] === "__MACOSX" || segments.some((segment) => segment.startsWith("."));
}

/** 1 when every file sits in one top folder without a SKILL.md at the archive root, else 0. */
function packageRoot(paths: readonly string[][]): number {
  if (paths.length === 0) throw new BadRequestError("The skill archive is empty.");
  const atRoot = paths.some((segments) => segments.length === 1);
  if (atRoot) return 0;
  const tops = new Set(paths.map((segments) => segments[0]));
  return tops.size === 1 ? 1 : 0;
}

function executableBit(mode: number | null): number {
  return mode !== null && (mode & 0o100) !== 0 ? 0o755 : 0o644;
}

function decodeSkillMarkdown(data: Buffer): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(data);
  } catch {
    throw new BadRequestError("SKILL.md is not valid UTF-8 text.");
  }
}

function asHttpError(error: unknown): unknown {
  if (!(error instanceof ZipFormatError)) return error;
  if (error.reason === "too_many_entries" || error.reason === "too_large") {
    return new PayloadTooLargeError(
      `${error.message} (skills.install.${error.reason === "too_large" ? "max_total_bytes" : "max_files"})`,
    );
  }
  return new BadRequestError(error.message);
}
