/**
 * `fawn user add` and `fawn token create` against the configured database (a SQLite file), then
 * a `local`-auth gateway over that same database: the CLI's user logs in, the CLI's token drives
 * the unmodified SDK.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GatewayHarness, startGatewayHarness } from "../gateway/helpers/gateway-harness.js";
import { postJson } from "./helpers/http-session.js";

const FAWN = join(import.meta.dirname, "../../bin/fawn.js");
let home = "";
let databaseUrl = "";

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function fawn(args: string[], stdin = ""): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [FAWN, ...args], {
      env: { ...process.env, FAWN_HOME: home, FAWN_DATABASE_URL: databaseUrl, FAWN_AUTH: "local" },
      cwd: home,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "fawn-cli-auth-"));
  databaseUrl = `sqlite:${join(home, "fawn.db")}`;
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

// Each CLI call starts a Node process that loads the TypeScript sources through tsx: seconds
// apiece, many more when other test files share the machine's cores.
describe("fawn user / fawn token", { timeout: 120_000 }, () => {
  let token = "";

  it("adds a user from stdin and refuses a duplicate or a short password", async () => {
    const added = await fawn(
      ["user", "add", "Dana@Example.org", "--password-stdin"],
      "dana's password\n",
    );
    expect(added).toMatchObject({ code: 0 });
    expect(added.stdout).toContain("Created user dana@example.org");
    expect(added.stdout + added.stderr).not.toContain("dana's password");
    const again = await fawn(
      ["user", "add", "dana@example.org", "--password-stdin"],
      "another password\n",
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already exists");
    const short = await fawn(["user", "add", "eve@example.org", "--password-stdin"], "short\n");
    expect(short.code).toBe(1);
    expect(short.stderr).toContain("8 to 1024");
  });

  it("prints a new token once, alone on stdout", async () => {
    const created = await fawn(["token", "create", "--user", "dana@example.org", "--name", "ci"]);
    expect(created.code).toBe(0);
    token = created.stdout.trim();
    expect(token).toMatch(/^fawn_[A-Za-z0-9_-]{43}$/);
    expect(created.stderr).toContain(token.slice(0, 11));
    expect(created.stderr).not.toContain(token);
    const unknown = await fawn(["token", "create", "--user", "nobody@example.org"]);
    expect(unknown.code).toBe(1);
  });

  it("serves the CLI's user and token from the same database", async () => {
    let h: GatewayHarness | undefined;
    try {
      h = await startGatewayHarness({
        database: { url: databaseUrl },
        config: { auth: { mode: "local" } },
      });
      const login = await postJson(`${h.apiUrl}/auth/login`, {
        email: "DANA@example.org",
        password: "dana's password",
      });
      expect(login.status).toBe(200);
      const client = new Client({
        apiUrl: h.apiUrl,
        apiKey: null,
        callerOptions: { maxRetries: 0 },
        defaultHeaders: { Authorization: `Bearer ${token}` },
      });
      const thread = await client.threads.create();
      expect((await client.threads.get(thread.thread_id)).thread_id).toBe(thread.thread_id);
      // Registration is closed (users exist) and unauthenticated calls are refused.
      expect(
        (
          await postJson(`${h.apiUrl}/auth/register`, {
            email: "x@example.org",
            password: "x password",
          })
        ).status,
      ).toBe(403);
      expect((await fetch(`${h.apiUrl}/threads/${thread.thread_id}`)).status).toBe(401);
    } finally {
      await h?.close();
    }
  });

  it("changes a password: the old one stops working", async () => {
    const changed = await fawn(
      ["user", "set-password", "dana@example.org", "--password-stdin"],
      "dana's new password\n",
    );
    expect(changed.code).toBe(0);
    const h = await startGatewayHarness({
      database: { url: databaseUrl },
      config: { auth: { mode: "local" } },
    });
    try {
      const login = (password: string) =>
        postJson(`${h.apiUrl}/auth/login`, { email: "dana@example.org", password });
      expect((await login("dana's password")).status).toBe(401);
      expect((await login("dana's new password")).status).toBe(200);
    } finally {
      await h.close();
    }
  });
});
