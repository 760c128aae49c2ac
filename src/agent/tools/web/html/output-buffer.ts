/**
 * Text built by appending, kept as pieces joined once at the end: re-reading or re-copying one
 * growing string for every token would make a 2 MB page take minutes instead of milliseconds.
 * It tracks what the writer asks about the end (last character, trailing newlines).
 */
export class OutputBuffer {
  private readonly pieces: string[] = [];
  private size = 0;
  private last = "";
  private newlinesAtEnd = 0;

  get length(): number {
    return this.size;
  }

  get lastChar(): string {
    return this.last;
  }

  get trailingNewlines(): number {
    return this.newlinesAtEnd;
  }

  /** A position to come back to with `takeSince`. */
  get mark(): number {
    return this.pieces.length;
  }

  append(text: string): void {
    if (!text) return;
    this.pieces.push(text);
    this.size += text.length;
    const newlines = countTrailingNewlines(text);
    this.newlinesAtEnd = newlines === text.length ? this.newlinesAtEnd + newlines : newlines;
    this.last = text.charAt(text.length - 1);
  }

  /** Removes and returns everything appended since `mark`. */
  takeSince(mark: number): string {
    const taken = this.pieces.splice(mark).join("");
    this.size -= taken.length;
    this.last = this.pieces.at(-1)?.slice(-1) ?? "";
    this.newlinesAtEnd = 0;
    for (let index = this.pieces.length - 1; index >= 0; index -= 1) {
      const piece = this.pieces[index] ?? "";
      const newlines = countTrailingNewlines(piece);
      this.newlinesAtEnd += newlines;
      if (newlines < piece.length) break;
    }
    return taken;
  }

  toString(): string {
    return this.pieces.join("");
  }
}

function countTrailingNewlines(text: string): number {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 10) end -= 1;
  return text.length - end;
}
