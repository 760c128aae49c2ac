import { z } from "zod";

const MiB = 1024 * 1024;

/**
 * Limits of a `.skill` archive installed through the API (`skills.install`). A custom skill lives
 * in the document store, whose values are bounded (16 Mi JSON characters, files base64-encoded),
 * so the unpacked size is capped at 10 MiB whatever is configured.
 */
export const skillInstallConfigSchema = z.strictObject({
  /** Bytes of the archive itself. */
  max_archive_bytes: z
    .number()
    .int()
    .min(1024)
    .max(10 * MiB)
    .default(8 * MiB),
  /** Bytes of every file of the skill, unpacked. */
  max_total_bytes: z
    .number()
    .int()
    .min(1024)
    .max(10 * MiB)
    .default(8 * MiB),
  /** Entries of the archive (files and folders). */
  max_files: z.number().int().min(1).max(4096).default(512),
  /** Bytes of SKILL.md (also the limit of an edit). */
  max_skill_md_bytes: z
    .number()
    .int()
    .min(1024)
    .max(MiB)
    .default(256 * 1024),
  /** An entry over 64 KiB unpacked whose size exceeds this many times its packed size is a zip bomb. */
  max_compression_ratio: z.number().min(2).max(10_000).default(100),
});

/**
 * The reference's `skill_scan`: the deterministic content checks run on an installed archive and
 * on custom-skill writes (private keys, cloud tokens, cloud metadata addresses, fork bombs). Safe
 * extraction (traversal, symlinks, executables, size and count limits) runs regardless.
 */
export const skillScanConfigSchema = z.strictObject({
  enabled: z.boolean().default(true),
});

export type SkillInstallConfig = z.output<typeof skillInstallConfigSchema>;
export type SkillScanConfig = z.output<typeof skillScanConfigSchema>;
