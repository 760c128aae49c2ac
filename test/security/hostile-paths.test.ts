/**
 * Hostile paths against every surface that turns a caller's path into a file: the sandbox file
 * tools (read_file, write_file, str_replace, ls, glob, grep, present_files, view_image, and the
 * host-side write_file) on the local and bubblewrap providers, the upload routes (multipart file
 * names, the delete path parameter) and the artifact route. Inputs: `..` in many spellings,
 * absolute host paths, look-alike prefixes, NUL, URL and double encodings, backslashes, Unicode
 * tricks, `~`, `file://`, overlong names, and symlinks and FIFOs planted inside the thread's
 * folders leading out. Zero escapes: after every call the sentinels outside the thread are
 * unchanged, nothing new exists outside it, and no answer carries a sentinel's content or a
 * host path. Every refusal is clear: a tool answers `Error: …` naming the path it was given; a
 * route answers 4xx with `{"detail": …}`, never 500. A tally is printed at the end.
 */
import { lstat, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createViewImageTool } from "../../src/agent/middlewares/view-image/view-image-tool.js";
import { createSandboxTools } from "../../src/agent/tools/sandbox/create-sandbox-tools.js";
import { createWriteFileTool } from "../../src/agent/tools/write-file.js";
import { sandboxConfigSchema } from "../../src/core/config/schema.js";
import { FawnPaths } from "../../src/core/paths.js";
import { createSandboxProvider, type SandboxProvider } from "../../src/sandbox/index.js";
import { type GatewayHarness, startGatewayHarness } from "../gateway/helpers/gateway-harness.js";
import { HeaderAuthProvider } from "../gateway/helpers/header-auth.js";
import { requireBwrap } from "../sandbox/helpers/require-bwrap.js";
import {
  artifactPathCases,
  DELETE_NAME_CASES,
  type HostileKind,
  mayBeContained,
  SENTINEL_FILES,
  type ToolPathCase,
  toolPathCases,
  UPLOAD_NAME_CASES,
} from "./helpers/hostile-cases.js";
import {
  buildHostileWorld,
  type HostileWorld,
  PASSWD_MARK,
  PLANTED_LINKS,
  SENTINEL_MARK,
  snapshotChanges,
} from "./helpers/hostile-world.js";
import { multipartBody } from "./helpers/multipart.js";
import { rawRequest } from "./helpers/raw-http.js";
import { HostileTally, type Outcome } from "./helpers/tally.js";

const bwrapWorks = await requireBwrap();
const PROVIDERS = bwrapWorks ? (["local", "bwrap"] as const) : (["local"] as const);

const ALICE = { "x-test-user": "alice" };
const BOB = { "x-test-user": "bob" };

interface ToolSurface {
  tool: string;
  /** Writes: never given `system` paths, and a plain (literal) name may be created inside. */
  mutates: boolean;
  /**
   * Further kinds a write may answer with success, because it replaces the entry inside the
   * thread instead of writing through it (the snapshot proves nothing outside changed).
   */
  replaces?: HostileKind[];
  args(path: string): Record<string, unknown>;
}

const TOOL_SURFACES: ToolSurface[] = [
  { tool: "read_file", mutates: false, args: (path) => ({ description: "d", path }) },
  { tool: "ls", mutates: false, args: (path) => ({ description: "d", path }) },
  { tool: "glob", mutates: false, args: (path) => ({ description: "d", pattern: "**/*", path }) },
  {
    tool: "grep",
    mutates: false,
    args: (path) => ({ description: "d", pattern: "SENTINEL", path }),
  },
  { tool: "present_files", mutates: false, args: (path) => ({ filepaths: [path] }) },
  { tool: "view_image", mutates: false, args: (path) => ({ image_path: path }) },
  {
    tool: "write_file",
    mutates: true,
    // A FIFO at the target is renamed over, like any existing file.
    replaces: ["special-file"],
    args: (path) => ({ description: "d", path, content: "PWNED" }),
  },
  {
    tool: "write_file append",
    mutates: true,
    args: (path) => ({ description: "d", path, content: "PWNED", append: true }),
  },
  {
    tool: "str_replace",
    mutates: true,
    args: (path) => ({ description: "d", path, old_str: SENTINEL_MARK, new_str: "PWNED" }),
  },
  {
    tool: "host write_file",
    mutates: true,
    // Replaces a symlink or FIFO at the target with a real file, never writing through it.
    replaces: ["symlink", "special-file"],
    args: (path) => ({ description: "d", path, content: "PWNED" }),
  },
];

// Thousands of checks, each fingerprinting the world twice: generous on a loaded 2-core machine.
describe("hostile paths: zero escapes, clear refusals", { timeout: 180_000 }, () => {
  const tally = new HostileTally();
  let gateway: GatewayHarness;
  let world: HostileWorld;
  let aliceThread = "";

  beforeAll(async () => {
    gateway = await startGatewayHarness({ auth: new HeaderAuthProvider() });
    aliceThread = await createThread(ALICE);
    const bobThread = await createThread(BOB);
    world = await buildHostileWorld(
      gateway.fawn.config.home,
      { userId: "alice", threadId: aliceThread },
      { userId: "bob", threadId: bobThread },
    );
  });

  afterAll(async () => {
    // The summary is the point of this suite; print it even when the reporter is quiet.
    console.log(tally.render());
    await gateway?.close();
    await world?.cleanup();
  });

  async function createThread(headers: Record<string, string>): Promise<string> {
    const response = await fetch(`${gateway.apiUrl}/threads`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: "{}",
    });
    return ((await response.json()) as { thread_id: string }).thread_id;
  }

  /** What an answer must never contain: sentinel content, /etc/passwd, host folders, sentinel names. */
  function leaks(answer: string, given: string): string[] {
    const found: string[] = [];
    if (answer.includes(SENTINEL_MARK)) found.push("sentinel content");
    if (answer.includes(PASSWD_MARK)) found.push("/etc/passwd content");
    const rest = answer.split(given).join("");
    if (rest.includes(world.outside)) found.push("the outside folder's host path");
    if (rest.includes(world.home)) found.push("a FAWN_HOME host path");
    // A sentinel's name may be echoed when the caller's input named it (in any encoding).
    for (const name of SENTINEL_FILES) {
      if (!given.includes(name) && rest.includes(name)) found.push(`sentinel name ${name}`);
    }
    return found;
  }

  describe.each(PROVIDERS)("the file tools on the %s provider", (kind) => {
    let provider: SandboxProvider;
    let tools: Map<string, StructuredToolInterface>;

    beforeAll(async () => {
      const paths = new FawnPaths(world.home);
      provider = await createSandboxProvider({
        config: sandboxConfigSchema.parse({ use: kind }),
        paths,
        skillsDir: null,
      });
      tools = new Map(createSandboxTools({ provider, paths }).map((tool) => [tool.name, tool]));
      tools.set("view_image", createViewImageTool({ paths }));
      tools.set("host write_file", createWriteFileTool({ paths }));
      // Warm up: the provider's first acquire writes its lock file before the baseline is taken.
      await invoke("read_file", { description: "d", path: "/mnt/user-data/outputs/report.md" });
    });

    afterAll(async () => {
      await provider?.shutdown();
      await world.replant();
    });

    async function invoke(name: string, args: Record<string, unknown>): Promise<string> {
      const tool = tools.get(name === "write_file append" ? "write_file" : name);
      if (!tool) throw new Error(`no tool ${name}`);
      const output: unknown = await tool.invoke(args, {
        configurable: { thread_id: aliceThread, user_id: "alice" },
      });
      if (typeof output !== "string") throw new Error(`${name} answered ${typeof output}`);
      return output;
    }

    it("a legitimate path still works (control)", async () => {
      expect(
        await invoke("read_file", { description: "d", path: "/mnt/user-data/outputs/report.md" }),
      ).toBe("# A legitimate report\n");
    });

    for (const surface of TOOL_SURFACES) {
      it(`${surface.tool}: every hostile path is refused or stays inside`, async () => {
        const problems: string[] = [];
        const cases = toolPathCases(world).filter((c) => !(surface.mutates && c.system));
        for (const hostile of cases) {
          const before = await world.snapshot();
          let answer: string;
          try {
            answer = await invoke(surface.tool, surface.args(hostile.path));
          } catch (error) {
            problems.push(`${hostile.id}: threw ${String(error).slice(0, 200)}`);
            continue;
          }
          const changes = snapshotChanges(before, await world.snapshot());
          if (changes.length > 0) problems.push(`${hostile.id}: ESCAPE ${changes.join(", ")}`);
          for (const leak of leaks(answer, hostile.path))
            problems.push(`${hostile.id}: leaked ${leak}`);
          const outcome = judgeToolAnswer(surface, hostile, answer, problems);
          tally.record(`tool ${surface.tool} (${kind})`, hostile.id, outcome);
        }
        if (surface.mutates) await world.replant();
        expect(problems).toEqual([]);
      });
    }
  });

  describe("the upload routes", () => {
    async function upload(hostile: (typeof UPLOAD_NAME_CASES)[number]): Promise<Response> {
      const raw = multipartBody([
        hostile.star
          ? { filenameStar: hostile.name, filename: "fallback.txt", content: `PWNED ${hostile.id}` }
          : { filename: hostile.name, content: `PWNED ${hostile.id}` },
      ]);
      return fetch(`${gateway.apiUrl}/threads/${aliceThread}/uploads`, {
        method: "POST",
        headers: { ...ALICE, "content-type": raw.contentType },
        body: raw.body,
      });
    }

    it("multipart file names: bad names are a 4xx naming the problem, plain names stay in uploads", async () => {
      const problems: string[] = [];
      for (const hostile of UPLOAD_NAME_CASES) {
        const before = await world.snapshot();
        const response = await upload(hostile);
        const text = await response.text();
        const changes = snapshotChanges(before, await world.snapshot());
        if (changes.length > 0) problems.push(`${hostile.id}: ESCAPE ${changes.join(", ")}`);
        for (const leak of leaks(text, hostile.name))
          problems.push(`${hostile.id}: leaked ${leak}`);
        const staging = (await readdir(world.aliceDirs.uploadsDir)).filter((n) =>
          n.startsWith(".upload-"),
        );
        if (staging.length > 0) problems.push(`${hostile.id}: left ${staging.join(", ")}`);
        let outcome: Outcome;
        if (response.status === 200) {
          outcome = "contained";
          if (hostile.refuse) problems.push(`${hostile.id}: accepted a name that must be refused`);
          const stored = await readFile(
            join(world.aliceDirs.uploadsDir, hostile.name),
            "utf8",
          ).catch(() => null);
          if (stored !== `PWNED ${hostile.id}`) {
            problems.push(`${hostile.id}: 200 but not stored under its own name in uploads`);
          }
        } else {
          outcome = "refused";
          problems.push(...httpRefusalProblems(hostile.id, response.status, text));
          if (!hostile.refuse)
            problems.push(`${hostile.id}: refused a plain name (${response.status})`);
        }
        tally.record("uploads POST (file name)", hostile.id, outcome);
      }
      expect(problems).toEqual([]);
      // Planted links and FIFOs are still what they were: nothing was written through them.
      for (const name of [...PLANTED_LINKS, "pipe.txt"]) {
        const stats = await lstat(join(world.aliceDirs.uploadsDir, name));
        expect(stats.isSymbolicLink() || stats.isFIFO(), name).toBe(true);
      }
    });

    it("the listing shows only regular files, never links, FIFOs or what they point at", async () => {
      const response = await fetch(`${gateway.apiUrl}/threads/${aliceThread}/uploads/list`, {
        headers: ALICE,
      });
      const text = await response.text();
      expect(response.status).toBe(200);
      expect(text).not.toContain(SENTINEL_MARK);
      const names = (JSON.parse(text) as { files: Array<{ filename: string }> }).files.map(
        (file) => file.filename,
      );
      for (const planted of [...PLANTED_LINKS, "pipe.txt", "pipe.png"]) {
        expect(names).not.toContain(planted);
      }
    });

    it("delete path parameter: hostile names are a 4xx, links and FIFOs are not deleted", async () => {
      const problems: string[] = [];
      for (const hostile of DELETE_NAME_CASES) {
        const before = await world.snapshot();
        const uploadsBefore = new Set(await readdir(world.aliceDirs.uploadsDir));
        const response = await rawRequest(gateway.url, {
          method: "DELETE",
          path: `/api/threads/${aliceThread}/uploads/${hostile.raw}`,
          headers: ALICE,
        });
        const changes = snapshotChanges(before, await world.snapshot());
        if (changes.length > 0) problems.push(`${hostile.id}: ESCAPE ${changes.join(", ")}`);
        for (const leak of leaks(response.body, hostile.raw))
          problems.push(`${hostile.id}: leaked ${leak}`);
        const uploadsAfter = new Set(await readdir(world.aliceDirs.uploadsDir));
        const gone = [...uploadsBefore].filter((name) => !uploadsAfter.has(name));
        if (response.status === 200) {
          // Only a regular file of Alice's own uploads, one that a plain-name upload stored.
          if (gone.length !== 1 || PLANTED_LINKS.some((link) => gone.includes(link))) {
            problems.push(`${hostile.id}: 200 removed ${JSON.stringify(gone)}`);
          }
          tally.record("uploads DELETE (path param)", hostile.id, "contained");
        } else {
          problems.push(...httpRefusalProblems(hostile.id, response.status, response.body));
          if (gone.length > 0)
            problems.push(`${hostile.id}: refused but removed ${gone.join(", ")}`);
          tally.record("uploads DELETE (path param)", hostile.id, "refused");
        }
      }
      expect(problems).toEqual([]);
    });

    it("another user's thread is 404 for upload, list and delete", async () => {
      const raw = multipartBody([{ filename: "x.txt", content: "x" }]);
      const responses = [
        await rawRequest(gateway.url, {
          method: "POST",
          path: `/api/threads/${aliceThread}/uploads`,
          headers: { ...BOB, "content-type": raw.contentType },
          body: raw.body,
        }),
        await rawRequest(gateway.url, {
          method: "GET",
          path: `/api/threads/${aliceThread}/uploads/list`,
          headers: BOB,
        }),
        await rawRequest(gateway.url, {
          method: "DELETE",
          path: `/api/threads/${aliceThread}/uploads/...`,
          headers: BOB,
        }),
      ];
      for (const response of responses) {
        expect(response.status).toBe(404);
        expect(JSON.parse(response.body)).toMatchObject({ code: "not_found" });
      }
    });
  });

  describe("the artifact route", () => {
    it("a legitimate artifact still downloads (control)", async () => {
      const response = await rawRequest(gateway.url, {
        method: "GET",
        path: `/api/threads/${aliceThread}/artifacts/mnt/user-data/outputs/report.md`,
        headers: ALICE,
      });
      expect(response.status).toBe(200);
      expect(response.body).toBe("# A legitimate report\n");
    });

    it("every hostile artifact path is a 4xx with a detail and serves nothing", async () => {
      const problems: string[] = [];
      for (const hostile of artifactPathCases()) {
        for (const [who, headers] of [
          ["owner", ALICE],
          ["other user", BOB],
        ] as const) {
          const before = await world.snapshot();
          const response = await rawRequest(gateway.url, {
            method: "GET",
            path: `/api/threads/${aliceThread}/artifacts/${hostile.raw}`,
            headers,
          });
          const changes = snapshotChanges(before, await world.snapshot());
          if (changes.length > 0) problems.push(`${hostile.id}: ESCAPE ${changes.join(", ")}`);
          for (const leak of leaks(response.body, hostile.raw)) {
            problems.push(`${hostile.id} (${who}): leaked ${leak}`);
          }
          if (hostile.parserRejects) {
            if (response.status !== 400) problems.push(`${hostile.id}: ${response.status}`);
          } else {
            problems.push(
              ...httpRefusalProblems(`${hostile.id} (${who})`, response.status, response.body),
            );
          }
          tally.record(`artifacts GET (${who})`, hostile.id, "refused");
        }
      }
      expect(problems).toEqual([]);
    });
  });

  it("ran at least 100 distinct hostile inputs, with zero escapes", () => {
    expect(tally.distinctInputs).toBeGreaterThanOrEqual(100);
  });
});

/**
 * A tool's answer: a refusal must be `Error: …` naming the path it was given and not an
 * unexpected-error report; success is right only for paths that land inside the thread.
 */
function judgeToolAnswer(
  surface: ToolSurface,
  hostile: ToolPathCase,
  answer: string,
  problems: string[],
): Outcome {
  if (answer.startsWith("Error:")) {
    const shown = hostile.path.length > 1000 ? hostile.path.slice(0, 200) : hostile.path;
    if (!answer.includes(shown))
      problems.push(`${hostile.id}: error does not name the path: ${answer.slice(0, 200)}`);
    if (answer.includes("Unexpected error"))
      problems.push(`${hostile.id}: unclear error: ${answer.slice(0, 200)}`);
    return "refused";
  }
  const mayWriteInside =
    surface.mutates &&
    (mayBeContained(hostile.kind) || (surface.replaces ?? []).includes(hostile.kind));
  if (!hostile.inside && !mayWriteInside) {
    problems.push(`${hostile.id}: not refused: ${JSON.stringify(answer.slice(0, 200))}`);
  }
  return "contained";
}

/** An HTTP refusal: 4xx (never 5xx) with a JSON `{"detail": "<sentence>", "code"}` body. */
function httpRefusalProblems(id: string, status: number, body: string): string[] {
  if (status < 400 || status >= 500) return [`${id}: status ${status}: ${body.slice(0, 200)}`];
  try {
    const parsed = JSON.parse(body) as { detail?: unknown; code?: unknown };
    if (typeof parsed.detail !== "string" || typeof parsed.code !== "string") {
      return [`${id}: ${status} without a detail: ${body.slice(0, 200)}`];
    }
  } catch {
    return [`${id}: ${status} body is not JSON: ${body.slice(0, 200)}`];
  }
  return [];
}
