import { BadRequestError } from "../../core/errors.js";

/** In-progress uploads are staged as `.upload-<random>.part` beside the files they become. */
export const STAGING_PREFIX = ".upload-";
export const STAGING_SUFFIX = ".part";

/** The longest name most filesystems store (NAME_MAX, in bytes). */
export const MAX_NAME_BYTES = 255;
/** How much of a refused name the error echoes; the rest is elided. */
const ECHOED_NAME_CHARS = 80;

/**
 * Characters that render as nothing or change how the rest reads: every format character
 * (category Cf: zero-width space and joiners, bidi marks, overrides and isolates, the byte order
 * mark, soft hyphen, tags), every default-ignorable code point (Hangul fillers, variation
 * selectors, the combining grapheme joiner, …) and the line and paragraph separators. A name
 * holding one can look exactly like another name, or read differently from what it is.
 */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}\p{Zl}\p{Zp}]/u;

export function isStagingName(name: string): boolean {
  return name.startsWith(STAGING_PREFIX) && name.endsWith(STAGING_SUFFIX);
}

/**
 * A name for a file directly inside a thread's uploads folder, or a 400 saying what is wrong.
 * Names are refused, not rewritten: a client that sent `../x` or `a/b.txt` learns that, rather
 * than finding its file under a name it did not choose. The NFKC form is checked too, so a
 * fullwidth `．．／` or a one-dot leader `․․` cannot turn into a traversal in any layer that
 * normalizes Unicode later.
 *
 * The name returned is the NFC form: the same letters typed as composed (é) or decomposed
 * (e + ◌́) characters name one file, not two files that look the same.
 */
export function checkUploadName(name: string): string {
  const stored = name.normalize("NFC");
  const problem = nameProblem(name, stored);
  if (problem !== null) {
    throw new BadRequestError(
      `Invalid file name ${echo(name)}: ${problem}. Use a plain file name such as report.pdf.`,
    );
  }
  return stored;
}

/** What is wrong with the name as sent, or with `stored`, its NFC form. */
function nameProblem(name: string, stored: string): string | null {
  if (name === "") return "it is empty";
  if (Buffer.byteLength(stored, "utf8") > MAX_NAME_BYTES) {
    return `it is longer than ${MAX_NAME_BYTES} bytes`;
  }
  if (name.includes("\0")) return "it contains a NUL byte";
  if (hasControlCharacter(name)) return "it contains control characters";
  const invisible = INVISIBLE.exec(name)?.[0];
  if (invisible !== undefined) {
    return `it contains the invisible or direction-changing character ${codePointLabel(invisible)}`;
  }
  const plain = formProblem(stored);
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

/** `U+200B`: how the refused character is named, since it cannot be seen in the echo. */
function codePointLabel(char: string): string {
  const hex = (char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0");
  return `U+${hex}`;
}

/** The name as JSON (control characters escaped), shortened so an error stays readable. */
function echo(name: string): string {
  const shown = name.length > ECHOED_NAME_CHARS ? `${name.slice(0, ECHOED_NAME_CHARS)}…` : name;
  return JSON.stringify(shown);
}
