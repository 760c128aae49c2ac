import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { deriveSandboxId } from "./sandbox-id.js";

const scope = { userId: "u1", threadId: "t-1" };

describe("deriveSandboxId", () => {
  it("is the reference's historic id without a skills view", () => {
    const historic = createHash("sha256").update("u1:t-1").digest("hex").slice(0, 16);
    expect(deriveSandboxId(scope, { skillsView: false })).toBe(historic);
  });

  it("is policy-scoped with a skills view, and depends on where skills are mounted", () => {
    const scoped = deriveSandboxId(scope, { skillsView: true });
    expect(scoped).toMatch(/^[0-9a-f]{16}$/);
    expect(scoped).not.toBe(deriveSandboxId(scope, { skillsView: false }));
    expect(deriveSandboxId(scope, { skillsView: true, skillsContainerPath: "/mnt/skills/" })).toBe(
      scoped,
    );
    expect(
      deriveSandboxId(scope, { skillsView: true, skillsContainerPath: "/opt/skills" }),
    ).not.toBe(scoped);
    expect(deriveSandboxId({ userId: "u2", threadId: "t-1" }, { skillsView: true })).not.toBe(
      scoped,
    );
  });
});
