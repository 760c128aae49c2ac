import { describe, expect, it } from "vitest";
import { SandboxCommandRefusedError } from "../sandbox-errors.js";
import { assertSafeLocalCommand } from "./command-gate.js";

const roots = ["/mnt/user-data", "/mnt/user-data/workspace", "/mnt/skills"];

describe("assertSafeLocalCommand", () => {
  it.each([
    "ls /mnt/user-data/workspace",
    "python3 /mnt/skills/x/run.py > /mnt/user-data/outputs/r.txt",
    "cat a.txt | /usr/bin/sort > /dev/null",
    "curl https://example.com/path/to",
    "echo $((6/3))",
    "VAR=/mnt/user-data/x env",
  ])("allows %s", (command) => {
    expect(() => assertSafeLocalCommand(command, roots)).not.toThrow();
  });

  it.each([
    "cat /etc/passwd",
    "ls /",
    "cd .. && ls",
    "cat ../secret",
    "cat '/root/.ssh/id_rsa'",
    "echo x >/tmp/y",
    "curl file:///etc/passwd",
    "ls /mnt/user-dataX",
  ])("refuses %s", (command) => {
    expect(() => assertSafeLocalCommand(command, roots)).toThrow(SandboxCommandRefusedError);
  });
});
