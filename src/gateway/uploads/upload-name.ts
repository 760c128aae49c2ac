import { BadRequestError } from "../../core/errors.js";

/** In-progress uploads are staged as `.upload-<random>.part` beside the files they become. */
export const STAGING_PREFIX = ".upload-";
export const STAGING_SUFFIX = ".part";

/** The longest name most filesystems store (NAME_MAX, in bytes). */
export const MAX_NAME_BYTES = 255;
/** How much of a refused name the error echoes; the rest is elided. */
const ECHOED_NAME_CHARS = 80;

/** Bidi overrides, marks and separators: they make a name read differently from what it is. */
const INVISIBLE_FORMATTING = /[\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/u;

export function isStagingName(name: string): boolean {
  return name.startsWith(STAGING_PREFIX) && name.endsWith(STAGING_SUFFIX);
}

/**
 * A name for a file directly inside a thread's uploads folder, or a 400 saying what is wrong.
 * Names are refused, not rewritten: a client that sent `../x` or `a/b.txt` learns that, rather
 * than finding its file under a name it did not choose. The NFKC form is checked too, so a
 * fullwidth `．．／` or a one-dot leader `․․` cannot turn into a traversal in any layer that
 * normalizes Unicode later.
 */
export function checkUploadName(name: string): string {
  const problem = nameProblem(name);
  if (problem !== null) {
    throw new BadRequestError(
      `Invalid file name ${echo(name)}: ${problem}. Use a plain file name such as report.pdf.`,
    );
  }
  return name;
}

function nameProblem(name: string): string | null {
  if (name === "") return "it is empty";
  if (Buffer.byteLength(name, "utf8") > MAX_NAME_BYTES) {
    return `it is longer than ${MAX_NAME_BYTES} bytes`;
  }
  if (name.includes("\0")) return "it contains a NUL byte";
  if (hasControlCharacter(name)) return "it contains control characters";
  if (INVISIBLE_FORMATTING.test(name))
    return "it contains invisible direction or format characters";
  const plain = formProblem(name);
  if (plain !== null) return plain;
  const normalized = formProblem(name.normalize("NFKC"));
  return normalized === null ? null : `${normalized} once Unicode-normalized (NFKC)`;
}

function formProblem(form: string): string | null {
  if (/[/\\]/.test(form)) return "it contains a path separator (/ or \\)";
  if (form === "." || form === "..") return "it names a folder, not a file";
  if (form.startsWith(STAGING_PREFIX)) {
    return `names starting with ${STAGING_PREFIX} are reserved for uploads in progress`;
  }
  return null;
}

/** C0 and C1 controls (tab, newline, escape, DEL, …). */
function hasControlCharacter(name: string): boolean {
  for (const char of name) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}

/** The name as JSON (control characters escaped), shortened so an error stays readable. */
function echo(name: string): string {
  const shown = name.length > ECHOED_NAME_CHARS ? `${name.slice(0, ECHOED_NAME_CHARS)}…` : name;
  return JSON.stringify(shown);
}
