import { describe, expect, it } from "vitest";
import { PasswordHasher } from "./password-hasher.js";

// The floor cost keeps the suite quick; the default only differs in `ln`.
const hasher = new PasswordHasher({ logN: 14, r: 8, p: 1 });

describe("PasswordHasher", () => {
  it("verifies the right password and rejects wrong ones", async () => {
    const stored = await hasher.hash("correct horse battery");
    expect(stored).toMatch(/^\$scrypt\$ln=14,r=8,p=1\$[A-Za-z0-9+/]+=*\$[A-Za-z0-9+/]+=*$/);
    expect(stored).not.toContain("correct horse");
    expect(await hasher.verify("correct horse battery", stored)).toBe(true);
    expect(await hasher.verify("correct horse batterY", stored)).toBe(false);
    expect(await hasher.verify("", stored)).toBe(false);
    expect(await hasher.verify("correct horse battery ", stored)).toBe(false);
  });

  it("salts every hash", async () => {
    const [a, b] = await Promise.all([hasher.hash("same password"), hasher.hash("same password")]);
    expect(a).not.toBe(b);
    expect(await hasher.verify("same password", a)).toBe(true);
    expect(await hasher.verify("same password", b)).toBe(true);
  });

  it("verifies with the cost stored in the hash, so the default can rise later", async () => {
    const stronger = new PasswordHasher({ logN: 15, r: 8, p: 1 });
    const stored = await hasher.hash("old cost password");
    expect(await stronger.verify("old cost password", stored)).toBe(true);
  });

  it("treats malformed or too-cheap stored values as a mismatch", async () => {
    const stored = await hasher.hash("password123");
    const weakened = stored.replace("ln=14", "ln=10");
    for (const bad of [
      "",
      "plain",
      "$scrypt$ln=14,r=8,p=1$$",
      weakened,
      stored.replace("ln=14", "ln=30"),
    ]) {
      expect(await hasher.verify("password123", bad)).toBe(false);
    }
  });

  it("refuses to hash below N = 2^14", () => {
    expect(() => new PasswordHasher({ logN: 13, r: 8, p: 1 })).toThrow(/at least/);
  });
});
