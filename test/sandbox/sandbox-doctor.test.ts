/** `describeSandboxProviders` (for `fawn doctor`) and `auto` selection, on this host's real tools. */
import { describe, expect, it } from "vitest";
import { probeBwrap } from "../../src/sandbox/bwrap/bwrap-probe.js";
import { resolveSandboxKind } from "../../src/sandbox/create-sandbox-provider.js";
import { describeSandboxProviders } from "../../src/sandbox/describe-sandbox-providers.js";

const bwrapWorks = (await probeBwrap()).available;

describe("sandbox doctor", () => {
  it("reports every provider and picks bubblewrap for auto when it works", async () => {
    const report = await describeSandboxProviders({ use: "auto", allow_host_bash: false });
    expect(report.providers.map((provider) => provider.kind)).toEqual([
      "local",
      "bwrap",
      "container",
    ]);
    expect(report.providers[0]).toMatchObject({ available: true, isolated: false });
    expect(report.active).toBe(bwrapWorks ? "bwrap" : "local");
    expect(report.summary).toMatch(new RegExp(`^sandbox: ${report.active} \\(auto\\)`));
    expect(report.hint === undefined).toBe(bwrapWorks);
  });

  it("falls back to local without bubblewrap and says how to get isolation", async () => {
    const options = { bwrapPath: "/nonexistent/bwrap", dockerPath: "/nonexistent/docker" };
    const report = await describeSandboxProviders({ use: "auto", allow_host_bash: true }, options);
    expect(report.active).toBe("local");
    expect(report.providers[1]?.detail).toMatch(/bubblewrap is not installed/);
    expect(report.providers[0]?.detail).toMatch(/host bash ON/);
    expect(report.hint).toMatch(/install bubblewrap/);
    expect(await resolveSandboxKind("auto", options)).toBe("local");
  });

  it("reports an explicitly chosen provider that cannot work here", async () => {
    const report = await describeSandboxProviders(
      { use: "container", allow_host_bash: false },
      { dockerPath: "/nonexistent/docker" },
    );
    expect(report.active).toBeNull();
    expect(report.summary).toMatch(/^sandbox.use: container, but it cannot work here: .*Docker/);
  });
});
