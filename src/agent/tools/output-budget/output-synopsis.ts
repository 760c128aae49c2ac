import { parse as parseYaml } from "yaml";

export type PreviewKind = "json" | "csv" | "tsv" | "yaml" | "xml" | "code" | "text" | "unknown";

export interface SynopsisOptions {
  toolName: string;
  virtualPath: string;
  headChars: number;
  tailChars: number;
}

/** Beyond this size nothing is parsed: the synopsis shows only a raw sample. */
const MAX_PARSE_BYTES = 5 * 1024 * 1024;
const MAX_LISTED = 12;

/**
 * What the model sees instead of an externalized output (the reference's synopsis, simplified): where the
 * whole output is, what kind of content it is, a few structural facts, a raw head + tail sample,
 * and how to read more. Deterministic: no model call.
 */
export function buildOutputSynopsis(text: string, options: SynopsisOptions): string {
  const { kind, facts } = describeContent(text);
  const lines = [
    `[Full ${options.toolName} output saved to ${options.virtualPath} (${text.length} chars, ~${Math.ceil(text.length / 4)} tokens).]`,
    `[Preview kind: ${kind}. This is a structured synopsis, not a raw head/tail truncation.]`,
    "",
    "Summary:",
    ...facts.map((fact) => `- ${fact}`),
    `Raw sample (head + tail, clipped to ${options.headChars} / ${options.tailChars} chars):`,
    rawSample(text, options.headChars, options.tailChars),
    "Access:",
    `- Use read_file on ${options.virtualPath} with start_line and end_line to inspect the raw output.`,
  ];
  return lines.join("\n");
}

function rawSample(text: string, head: number, tail: number): string {
  if (text.length <= head + tail) return text;
  const omitted = text.length - head - tail;
  return `${text.slice(0, head)}\n... [${omitted} chars not shown] ...\n${text.slice(text.length - tail)}`;
}

interface ContentDescription {
  kind: PreviewKind;
  facts: string[];
}

/** Classifier order follows the reference: oversized, binary, JSON, XML, CSV/TSV, YAML, code, text. */
export function describeContent(text: string): ContentDescription {
  const lineCount = text === "" ? 0 : text.split("\n").length;
  const size = `${lineCount} lines, ${text.length} chars`;
  if (text.trim() === "") return { kind: "text", facts: ["empty output"] };
  if (Buffer.byteLength(text, "utf8") > MAX_PARSE_BYTES) {
    return { kind: "unknown", facts: [size, "too large to analyse; raw sample only"] };
  }
  if (controlCharShare(text) > 0.05) return { kind: "unknown", facts: [size, "binary-like"] };
  return (
    describeJson(text, size) ??
    describeXml(text, size) ??
    describeDelimited(text, size) ??
    describeYaml(text, size) ??
    describeCode(text, size) ??
    describeText(text, size)
  );
}

function controlCharShare(text: string): number {
  const sample = text.slice(0, 10_000);
  let controls = 0;
  for (let i = 0; i < sample.length; i += 1) {
    const code = sample.charCodeAt(i);
    // Tab, newline, vertical tab, form feed and carriage return are ordinary text.
    if (code < 0x20 && (code < 0x09 || code > 0x0d)) controls += 1;
  }
  return controls / sample.length;
}

function describeJson(text: string, size: string): ContentDescription | null {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const facts = [size];
  if (Array.isArray(value)) {
    facts.push(`array of ${value.length} items`);
    const first: unknown = value[0];
    if (isRecord(first)) facts.push(`item keys: ${listed(Object.keys(first))}`);
  } else if (isRecord(value)) {
    facts.push(`object with keys: ${listed(Object.keys(value))}`);
  }
  return { kind: "json", facts };
}

function describeXml(text: string, size: string): ContentDescription | null {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith("<")) return null;
  const root = /<([A-Za-z_][\w:.-]*)/.exec(trimmed.replace(/^<\?xml[^>]*>\s*/, ""));
  if (!root?.[1]) return null;
  const tags = new Map<string, number>();
  for (const match of text.matchAll(/<([A-Za-z_][\w:.-]*)/g)) {
    const tag = match[1] ?? "";
    tags.set(tag, (tags.get(tag) ?? 0) + 1);
  }
  const counts = [...tags.entries()].slice(0, MAX_LISTED).map(([tag, n]) => `${tag}×${n}`);
  return { kind: "xml", facts: [size, `root <${root[1]}>`, `tags: ${counts.join(", ")}`] };
}

function describeDelimited(text: string, size: string): ContentDescription | null {
  const rows = text.split("\n").filter((line) => line.trim() !== "");
  const header = rows[0];
  if (!header || rows.length < 2) return null;
  for (const [kind, delimiter] of [
    ["tsv", "\t"],
    ["csv", ","],
  ] as const) {
    const columns = header.split(delimiter).map((cell) => cell.trim());
    const looksLikeHeader =
      columns.length > 1 && columns.every((cell) => /^"?[A-Za-z_][\w .-]*"?$/.test(cell));
    const consistent = rows
      .slice(1, 20)
      .every((row) => row.split(delimiter).length === columns.length);
    if (looksLikeHeader && consistent) {
      return {
        kind,
        facts: [
          size,
          `${rows.length - 1} rows × ${columns.length} columns`,
          `columns: ${listed(columns)}`,
        ],
      };
    }
  }
  return null;
}

function describeYaml(text: string, size: string): ContentDescription | null {
  const lines = text.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("#"));
  const keyed = lines.filter((line) => /^\s*[\w.-]+:(\s|$)/.test(line) || /^\s*- /.test(line));
  if (lines.length < 2 || keyed.length / lines.length < 0.8) return null;
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch {
    return null;
  }
  const facts = [size];
  if (isRecord(value)) facts.push(`top-level keys: ${listed(Object.keys(value))}`);
  return { kind: "yaml", facts };
}

const CODE_SYMBOL =
  /^\s*(?:export\s+)?(?:async\s+)?(?:def|class|function|fn|func|interface|struct|impl)\s+([A-Za-z_][\w]*)/gm;
const CODE_IMPORT = /^\s*(?:import\s|from\s+\S+\s+import\s|#include\s|use\s+\w|require\()/gm;

function describeCode(text: string, size: string): ContentDescription | null {
  const imports = text.match(CODE_IMPORT)?.length ?? 0;
  const symbols = [...text.matchAll(CODE_SYMBOL)].map((match) => match[1] ?? "");
  if (imports + symbols.length < 2) return null;
  const facts = [size, `${imports} import lines`];
  if (symbols.length > 0) facts.push(`symbols: ${listed(symbols)}`);
  return { kind: "code", facts };
}

function describeText(text: string, size: string): ContentDescription {
  const words = text.split(/\s+/).filter(Boolean).length;
  const headings = text
    .split("\n")
    .filter((line) => /^#{1,6}\s+\S/.test(line))
    .slice(0, 16)
    .map((line) => line.trim());
  const facts = [`${size}, ${words} words`];
  if (headings.length > 0) facts.push(`headings: ${headings.join(" | ")}`);
  return { kind: "text", facts };
}

function listed(items: string[]): string {
  const shown = items.slice(0, MAX_LISTED).join(", ");
  return items.length > MAX_LISTED ? `${shown}, … (${items.length} in all)` : shown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
