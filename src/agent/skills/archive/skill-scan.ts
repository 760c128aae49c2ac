/**
 * The deterministic content checks `skill_scan.enabled` turns on (the reference's "CRITICAL"
 * rules that need no code analysis): text a skill should never carry. A finding blocks the
 * install or the edit; the rule id and file tell the author what to remove.
 */

export interface SkillScanFinding {
  rule_id: string;
  file: string;
  line: number;
  message: string;
}

interface ContentRule {
  id: string;
  pattern: RegExp;
  message: string;
}

const CONTENT_RULES: readonly ContentRule[] = [
  {
    id: "secret-private-key",
    pattern: /-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----/,
    message: "Private key material is embedded; keep keys in a secret store.",
  },
  {
    id: "secret-cloud-token",
    pattern:
      /\b(?:AKIA[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{36,}|xox[abpr]-[A-Za-z0-9-]{10,}|sk-(?:proj-)?[A-Za-z0-9_-]{32,}|AIza[0-9A-Za-z_-]{35})\b/,
    message: "A cloud or API token is embedded; read it from an environment variable instead.",
  },
  {
    id: "network-cloud-metadata",
    pattern: /\b169\.254\.169\.254\b|metadata\.google\.internal/,
    message: "The cloud metadata service is referenced; a skill has no business there.",
  },
  {
    id: "resource-fork-bomb",
    pattern: /:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:/,
    message: "A fork bomb is present.",
  },
];

/** Text files are scanned; binary ones (a NUL in the first KiB) are not text anyone reads. */
function isText(data: Buffer): boolean {
  return !data.subarray(0, 1024).includes(0);
}

/** The findings of one file's content (at most one per rule). */
export function scanSkillContent(file: string, data: Buffer | string): SkillScanFinding[] {
  if (typeof data !== "string" && !isText(data)) return [];
  const text = typeof data === "string" ? data : data.toString("utf8");
  const findings: SkillScanFinding[] = [];
  for (const rule of CONTENT_RULES) {
    const match = rule.pattern.exec(text);
    if (!match) continue;
    const line = text.slice(0, match.index).split("\n").length;
    findings.push({ rule_id: rule.id, file, line, message: rule.message });
  }
  return findings;
}

export function describeFindings(findings: readonly SkillScanFinding[]): string {
  return findings
    .slice(0, 5)
    .map((finding) => `${finding.rule_id} at ${finding.file}:${finding.line}`)
    .join("; ");
}
