import { describe, expect, it } from "vitest";
import { PathEscapeError } from "../core/errors.js";
import { describeSandboxFailure, formatCommandOutput, middleTruncate } from "./tool-text.js";

const result = { exitCode: 0, stdout: "", stderr: "", truncated: false, timedOut: false };

describe("tool text", () => {
  it("formats command output the way the bash tool shows it", () => {
    expect(formatCommandOutput(result)).toBe("(no output)");
    expect(formatCommandOutput({ ...result, stdout: "out\n", stderr: "err\n", exitCode: 2 })).toBe(
      "out\n\nStd Error:\nerr\n\nExit Code: 2",
    );
    expect(
      formatCommandOutput({ ...result, timedOut: true, exitCode: 137 }, { timeoutMs: 5_000 }),
    ).toMatch(/^Exit Code: 137\n\[Command timed out after 5 s/);
  });

  it("middle-truncates without ever exceeding the cap", () => {
    const text = "x".repeat(50_000);
    for (const cap of [100, 1_000, 20_000]) {
      const cut = middleTruncate(text, cap);
      expect(cut.length).toBeLessThanOrEqual(cap);
      expect(cut).toContain("[middle truncated:");
    }
    expect(middleTruncate(text, 0)).toBe(text);
    expect(middleTruncate("short", 100)).toBe("short");
  });

  it("shows known errors as they are and masks unknown ones", () => {
    expect(describeSandboxFailure(new PathEscapeError("/etc"), "reading file")).toBe(
      'Error: Path "/etc" escapes its allowed root; use a path inside it.',
    );
    expect(
      describeSandboxFailure(new TypeError("bad /host/ws/x"), "reading file", (text) =>
        text.replace("/host/ws", "/mnt/user-data/workspace"),
      ),
    ).toBe("Error: Unexpected error reading file: TypeError: bad /mnt/user-data/workspace/x");
  });
});
