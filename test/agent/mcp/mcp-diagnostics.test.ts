/** `fawn doctor`'s MCP checks: a working server lists its tools; every failure names a fix. */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { diagnoseMcpServers } from "../../../src/agent/mcp/mcp-diagnostics.js";
import { createLogger } from "../../../src/core/logger.js";
import { STDIO_SERVER } from "./mcp-test-support.js";

let home: string;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "fawn-mcp-doctor-"));
});

afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe("diagnoseMcpServers", () => {
  it("reports tools of a working server and a reason with a hint for each broken one", async () => {
    await writeFile(
      join(home, "extensions_config.json"),
      JSON.stringify({
        mcpServers: {
          fixture: { command: "node", args: [STDIO_SERVER], tools: ["echo"] },
          shell: { command: "bash" },
          bad: { type: "http", url: "ftp://example.com" },
          down: { url: "http://127.0.0.1:1/mcp" },
          off: { enabled: false, command: "npx" },
        },
      }),
    );
    const result = await diagnoseMcpServers({
      home,
      env: { FAWN_MCP_STDIO_COMMAND_ALLOWLIST: "node" },
      logger: createLogger({ level: "silent" }),
    });
    expect(result.source).toBe(join(home, "extensions_config.json"));
    const byName = new Map(result.checks.map((check) => [check.name, check]));
    expect(byName.get("fixture")).toMatchObject({ ok: true });
    expect(byName.get("fixture")?.detail).toMatch(/1 tools: echo; skipped .*whoami/);
    expect(byName.get("off")).toMatchObject({ ok: true, detail: "disabled" });
    expect(byName.get("shell")?.ok).toBe(false);
    expect(byName.get("shell")?.detail).toMatch(/FAWN_MCP_STDIO_COMMAND_ALLOWLIST/);
    expect(byName.get("bad")).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/mcpServers\.bad\.url/),
    });
    expect(byName.get("down")).toMatchObject({ ok: false, hint: expect.stringMatching(/url/) });
  });

  it("reports an unparsable file with a fix", async () => {
    await writeFile(join(home, "extensions_config.json"), "{ not json");
    const result = await diagnoseMcpServers({
      home,
      env: {},
      logger: createLogger({ level: "silent" }),
    });
    expect(result.checks).toEqual([
      expect.objectContaining({ ok: false, detail: expect.stringMatching(/Cannot parse/) }),
    ]);
  });
});
