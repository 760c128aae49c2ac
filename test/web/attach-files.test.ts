/** Attaching files within the server's upload limits, sizes in words, pasted files' names. */
import { describe, expect, it } from "vitest";
import {
  attachWithinLimits,
  formatBytes,
  namePastedFile,
} from "../../web/src/uploads/attach-files.js";

const LIMITS = { max_files: 2, max_file_size: 100, max_total_size: 150 };

function file(name: string, size: number): File {
  return new File([new Uint8Array(size)], name);
}

describe("attachWithinLimits", () => {
  it("adds files, a file of the same name replacing the earlier one", () => {
    const first = file("a.txt", 10);
    const again = file("a.txt", 20);
    const result = attachWithinLimits([first], [again, file("b.txt", 5)], LIMITS);
    expect(result.files.map((f) => [f.name, f.size])).toEqual([
      ["a.txt", 20],
      ["b.txt", 5],
    ]);
    expect(result.problems).toEqual([]);
  });

  it("leaves out what breaks a limit and says which", () => {
    const result = attachWithinLimits(
      [file("a.txt", 90)],
      [file("big.bin", 101), file("b.txt", 70), file("c.txt", 10), file("d.txt", 1)],
      LIMITS,
    );
    expect(result.files.map((f) => f.name)).toEqual(["a.txt", "c.txt"]);
    expect(result.problems).toEqual([
      { kind: "too_large", name: "big.bin", max: 100 },
      { kind: "total_too_large", max: 150 },
      { kind: "too_many", max: 2 },
    ]);
  });

  it("checks nothing when the limits could not be read (the server still does)", () => {
    expect(attachWithinLimits([], [file("x", 10_000)], null).files).toHaveLength(1);
  });
});

describe("formatBytes and namePastedFile", () => {
  it("says sizes in powers of 1024", () => {
    expect(formatBytes(12)).toBe("12 B");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(50 * 1024 * 1024)).toBe("50 MB");
  });

  it("gives each pasted image.png its own name and keeps other names", () => {
    const pasted = new File(["x"], "image.png", { type: "image/png" });
    expect(namePastedFile(pasted, []).name).toBe("pasted-image-1.png");
    expect(namePastedFile(pasted, ["pasted-image-1.png"]).name).toBe("pasted-image-2.png");
    expect(namePastedFile(new File(["x"], "report.pdf"), []).name).toBe("report.pdf");
  });
});
