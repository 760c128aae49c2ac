import { ValidationError } from "../../core/errors.js";

/**
 * Glob matching over `/`-separated relative paths without regular expressions: `*` and `?` stay
 * inside one segment, `**` spans any number of segments (also none), `[abc]` / `[!a-z]` are
 * classes and `{a,b}` alternatives. Patterns come from the model, so matching must stay cheap on
 * any input: segments use the two-pointer wildcard algorithm (O(n·m)), `**` a memoized walk.
 */
export type PathMatcher = (relativePath: string) => boolean;

type Token =
  | { kind: "literal"; char: string }
  | { kind: "one" }
  | { kind: "star" }
  | { kind: "class"; negated: boolean; ranges: Array<[string, string]> };

type Segment = "**" | Token[];

const MAX_ALTERNATIVES = 256;

export function compileGlob(pattern: string): PathMatcher {
  if (pattern === "" || pattern.includes("\0")) {
    throw new ValidationError("Glob pattern must be a non-empty string.");
  }
  const alternatives = expandBraces(pattern).map(parsePattern);
  return (relativePath) => {
    const parts = relativePath.split("/").filter((part) => part !== "");
    return alternatives.some((segments) => matchSegments(segments, parts));
  };
}

/**
 * grep's `glob` filter, ripgrep-style: a pattern without `/` matches a file's name at any depth
 * (`*.py`); one with `/` matches the path relative to the search root.
 */
export function compilePathFilter(pattern: string): PathMatcher {
  const matcher = compileGlob(pattern);
  if (pattern.includes("/")) return matcher;
  return (relativePath) => matcher(relativePath.slice(relativePath.lastIndexOf("/") + 1));
}

function expandBraces(pattern: string): string[] {
  const open = pattern.indexOf("{");
  if (open === -1) return [pattern];
  let depth = 0;
  const commas: number[] = [];
  let close = -1;
  for (let i = open; i < pattern.length && close === -1; i += 1) {
    const char = pattern[i];
    if (char === "{") depth += 1;
    else if (char === "}") {
      depth -= 1;
      if (depth === 0) close = i;
    } else if (char === "," && depth === 1) commas.push(i);
  }
  if (close === -1) throw new ValidationError(`Unclosed "{" in glob pattern: ${pattern}`);
  const head = pattern.slice(0, open);
  const tail = pattern.slice(close + 1);
  const bounds = [open, ...commas, close];
  const expanded: string[] = [];
  for (let i = 0; i + 1 < bounds.length; i += 1) {
    const option = pattern.slice((bounds[i] ?? 0) + 1, bounds[i + 1]);
    for (const rest of expandBraces(`${head}${option}${tail}`)) {
      expanded.push(rest);
      if (expanded.length > MAX_ALTERNATIVES) {
        throw new ValidationError(`Glob pattern expands to too many alternatives: ${pattern}`);
      }
    }
  }
  return expanded;
}

function parsePattern(pattern: string): Segment[] {
  return pattern
    .split("/")
    .filter((segment) => segment !== "")
    .map((segment) => (segment === "**" ? "**" : parseSegment(segment)));
}

function parseSegment(segment: string): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < segment.length; i += 1) {
    const char = segment.charAt(i);
    if (char === "*") {
      // Consecutive stars inside a segment mean the same as one.
      if (tokens.at(-1)?.kind !== "star") tokens.push({ kind: "star" });
    } else if (char === "?") {
      tokens.push({ kind: "one" });
    } else if (char === "[" && segment.indexOf("]", i + 2) !== -1) {
      const end = segment.indexOf("]", i + 2);
      let body = segment.slice(i + 1, end);
      const negated = body.startsWith("!") || body.startsWith("^");
      if (negated) body = body.slice(1);
      tokens.push({ kind: "class", negated, ranges: parseRanges(body) });
      i = end;
    } else if (char === "\\" && i + 1 < segment.length) {
      i += 1;
      tokens.push({ kind: "literal", char: segment.charAt(i) });
    } else {
      tokens.push({ kind: "literal", char });
    }
  }
  return tokens;
}

function parseRanges(body: string): Array<[string, string]> {
  const ranges: Array<[string, string]> = [];
  for (let i = 0; i < body.length; i += 1) {
    const from = body.charAt(i);
    if (body[i + 1] === "-" && i + 2 < body.length) {
      ranges.push([from, body.charAt(i + 2)]);
      i += 2;
    } else {
      ranges.push([from, from]);
    }
  }
  return ranges;
}

function matchSegments(segments: Segment[], parts: string[]): boolean {
  const memo = new Map<number, boolean>();
  const width = parts.length + 1;
  const visit = (si: number, pi: number): boolean => {
    const key = si * width + pi;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let result: boolean;
    const segment = segments[si];
    if (segment === undefined) result = pi === parts.length;
    else if (segment === "**")
      result = visit(si + 1, pi) || (pi < parts.length && visit(si, pi + 1));
    else {
      const part = parts[pi];
      result = part !== undefined && matchSegment(segment, part) && visit(si + 1, pi + 1);
    }
    memo.set(key, result);
    return result;
  };
  return visit(0, 0);
}

/** Two-pointer wildcard match: on a mismatch, retry from the last star one character later. */
function matchSegment(tokens: Token[], text: string): boolean {
  let t = 0;
  let s = 0;
  let starToken = -1;
  let starText = 0;
  while (s < text.length) {
    const token = tokens[t];
    if (token !== undefined && token.kind === "star") {
      starToken = t;
      starText = s;
      t += 1;
    } else if (token !== undefined && matchesOne(token, text.charAt(s))) {
      t += 1;
      s += 1;
    } else if (starToken !== -1) {
      t = starToken + 1;
      starText += 1;
      s = starText;
    } else {
      return false;
    }
  }
  while (tokens[t]?.kind === "star") t += 1;
  return t === tokens.length;
}

function matchesOne(token: Exclude<Token, { kind: "star" }>, char: string): boolean {
  switch (token.kind) {
    case "literal":
      return token.char === char;
    case "one":
      return true;
    case "class": {
      const inside = token.ranges.some(([from, to]) => char >= from && char <= to);
      return inside !== token.negated;
    }
  }
}
