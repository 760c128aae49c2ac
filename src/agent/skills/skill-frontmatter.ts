import { parse as parseYaml } from "yaml";
import { isPlainObject } from "../../core/config/env-expansion.js";
import type { SecretRequirement, SkillManifest } from "./skill.js";

/** The frontmatter keys a SKILL.md may use; any other key is invalid. */
export const ALLOWED_FRONTMATTER_KEYS: ReadonlySet<string> = new Set([
  "name",
  "description",
  "license",
  "allowed-tools",
  "required-secrets",
  "secrets-autonomous",
  "metadata",
  "compatibility",
  "version",
  "author",
]);

const MAX_NAME_LENGTH = 64;
const MAX_DESCRIPTION_LENGTH = 1024;
const HYPHEN_CASE = /^[a-z0-9-]+$/;
const ENV_VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const FRONTMATTER = /^---[ \t]*\n([\s\S]*?)\n---[ \t]*(?:\n|$)/;

export type SkillParseResult =
  | { ok: true; manifest: SkillManifest; body: string }
  | { ok: false; reason: string };

/** Parses and validates a SKILL.md document; the reason says what to fix when it is invalid. */
export function parseSkillMarkdown(content: string): SkillParseResult {
  const text = content.replace(/^\uFEFF/, "").replaceAll("\r\n", "\n");
  const match = FRONTMATTER.exec(text);
  if (!match) return invalid("No YAML frontmatter found (start SKILL.md with a --- block)");
  let metadata: unknown;
  try {
    metadata = parseYaml(match[1] ?? "");
  } catch (error) {
    const detail = error instanceof Error ? error.message.split("\n")[0] : String(error);
    return invalid(`Invalid YAML in frontmatter: ${detail}`);
  }
  if (!isPlainObject(metadata)) return invalid("Frontmatter must be a YAML mapping");
  const result = validateSkillFrontmatter(metadata);
  return result.ok ? { ...result, body: text.slice(match[0].length) } : result;
}

/** The frontmatter rules, in the order the reference checks them; the first failure is reported. */
export function validateSkillFrontmatter(
  metadata: Record<string, unknown>,
): { ok: true; manifest: SkillManifest } | { ok: false; reason: string } {
  const unexpected = Object.keys(metadata)
    .filter((key) => !ALLOWED_FRONTMATTER_KEYS.has(key))
    .sort();
  if (unexpected.length > 0) {
    return invalid(`Unexpected key(s) in SKILL.md frontmatter: ${unexpected.join(", ")}`);
  }
  const name = checkName(metadata.name);
  if (typeof name !== "string") return name;
  const description = checkDescription(metadata.description);
  if (typeof description !== "string") return description;
  const allowedTools = parseAllowedTools(metadata["allowed-tools"]);
  if (allowedTools !== null && !Array.isArray(allowedTools)) return allowedTools;
  const requiredSecrets = parseRequiredSecrets(metadata["required-secrets"]);
  if (!Array.isArray(requiredSecrets)) return requiredSecrets;
  const autonomous = metadata["secrets-autonomous"];
  if (autonomous !== undefined && autonomous !== null && typeof autonomous !== "boolean") {
    return invalid("secrets-autonomous must be a boolean");
  }
  const license = metadata.license;
  return {
    ok: true,
    manifest: {
      name,
      description,
      license: license === undefined || license === null ? null : String(license).trim() || null,
      allowedTools,
      requiredSecrets,
    },
  };
}

type Invalid = { ok: false; reason: string };

function invalid(reason: string): Invalid {
  return { ok: false, reason };
}

function checkName(raw: unknown): string | Invalid {
  if (raw === undefined || raw === null) return invalid("Missing 'name' in frontmatter");
  if (typeof raw !== "string") return invalid(`Name must be a string, got ${typeName(raw)}`);
  const name = raw.trim();
  if (name === "") return invalid("Name cannot be empty");
  if (!HYPHEN_CASE.test(name)) {
    return invalid(
      `Name '${name}' should be hyphen-case (lowercase letters, digits, and hyphens only)`,
    );
  }
  if (name.startsWith("-") || name.endsWith("-") || name.includes("--")) {
    return invalid(`Name '${name}' cannot start/end with hyphen or contain consecutive hyphens`);
  }
  if (name.length > MAX_NAME_LENGTH) {
    return invalid(
      `Name is too long (${name.length} characters). Maximum is ${MAX_NAME_LENGTH} characters.`,
    );
  }
  return name;
}

function checkDescription(raw: unknown): string | Invalid {
  if (raw === undefined || raw === null) return invalid("Missing 'description' in frontmatter");
  if (typeof raw !== "string") {
    return invalid(`Description must be a string, got ${typeName(raw)}`);
  }
  const description = raw.trim();
  // The runtime loader needs something to show the model; an empty description lists nothing.
  if (description === "") return invalid("Description cannot be empty");
  if (description.includes("<") || description.includes(">")) {
    return invalid("Description cannot contain angle brackets (< or >)");
  }
  if (description.length > MAX_DESCRIPTION_LENGTH) {
    return invalid(
      `Description is too long (${description.length} characters). Maximum is ${MAX_DESCRIPTION_LENGTH} characters.`,
    );
  }
  return description;
}

function parseAllowedTools(raw: unknown): string[] | null | Invalid {
  if (raw === undefined || raw === null) return null;
  if (!Array.isArray(raw)) return invalid("allowed-tools must be a list of strings");
  const tools: string[] = [];
  for (const item of raw) {
    if (typeof item !== "string") return invalid("allowed-tools must contain only strings");
    const tool = item.trim();
    if (tool === "") return invalid("allowed-tools cannot contain empty tool names");
    tools.push(tool);
  }
  return tools;
}

/**
 * Items are a name or `{name, optional}`. The field must be a list; an item whose name is not an
 * environment-variable name is dropped (as the reference does), not fatal for the skill.
 */
function parseRequiredSecrets(raw: unknown): SecretRequirement[] | Invalid {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) return invalid("required-secrets must be a list");
  const secrets: SecretRequirement[] = [];
  const seen = new Set<string>();
  for (const item of raw) {
    let name: string;
    let optional = false;
    if (typeof item === "string") {
      name = item.trim();
    } else if (isPlainObject(item)) {
      name = typeof item.name === "string" ? item.name.trim() : "";
      optional = item.optional === true;
    } else {
      continue;
    }
    if (!ENV_VAR_NAME.test(name) || seen.has(name)) continue;
    seen.add(name);
    secrets.push({ name, optional });
  }
  return secrets;
}

function typeName(value: unknown): string {
  if (Array.isArray(value)) return "list";
  if (isPlainObject(value)) return "mapping";
  return typeof value;
}
