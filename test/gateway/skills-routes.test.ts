/**
 * `GET /api/skills`, `GET /api/skills/{name}`, `PUT /api/skills/{name}` through a real gateway on
 * 127.0.0.1: the caller's skills with their enabled flags, a switch persisted in the document store (and seen through
 * `/api/langgraph` too), 404 for unknown names, 400 for bad bodies, and under real local auth
 * each user's switches and custom skills are their own.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserSession, cookieHeaders, registerUser } from "../auth/helpers/http-session.js";
import { type GatewayHarness, startGatewayHarness } from "./helpers/gateway-harness.js";

let root: string;

async function put(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

function skillMd(name: string, description: string): string {
  return `---\nname: ${name}\ndescription: ${description}\nlicense: MIT\n---\nBody of ${name}.\n`;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "fawn-skill-routes-"));
  await put(join(root, "public/alpha/SKILL.md"), skillMd("alpha", "First skill."));
  await put(join(root, "public/beta/SKILL.md"), skillMd("beta", "Second skill."));
  await put(join(root, "public/broken/SKILL.md"), skillMd("Broken", "Invalid name."));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function request(
  h: GatewayHarness,
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${h.apiUrl}${path}`, {
    method,
    headers: { "content-type": "application/json", ...headers },
    ...(body === undefined ? {} : { body }),
  });
}

describe("skills routes (auth disabled)", () => {
  let h: GatewayHarness;

  beforeAll(async () => {
    h = await startGatewayHarness({ config: { skills: { path: root } } });
    await put(
      join(h.fawn.config.home, "users/default/skills/custom/mine/SKILL.md"),
      skillMd("mine", "My own skill."),
    );
  });

  afterAll(async () => {
    await h?.close();
  });

  it("lists valid skills with their category and enabled flag", async () => {
    const response = await request(h, "GET", "/skills");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      skills: [
        {
          name: "alpha",
          description: "First skill.",
          license: "MIT",
          category: "public",
          enabled: true,
          editable: false,
        },
        {
          name: "beta",
          description: "Second skill.",
          license: "MIT",
          category: "public",
          enabled: true,
          editable: false,
        },
        {
          name: "mine",
          description: "My own skill.",
          license: "MIT",
          category: "custom",
          enabled: true,
          editable: false,
        },
      ],
    });
  });

  it("PUT switches a skill off and on; the switch is persisted", async () => {
    const off = await request(h, "PUT", "/skills/beta", JSON.stringify({ enabled: false }));
    expect(off.status).toBe(200);
    expect(await off.json()).toMatchObject({ name: "beta", enabled: false });
    const listed = (await (await fetch(`${h.url}/api/langgraph/skills`)).json()) as {
      skills: { name: string; enabled: boolean }[];
    };
    expect(listed.skills.map((skill) => [skill.name, skill.enabled])).toEqual([
      ["alpha", true],
      ["beta", false],
      ["mine", true],
    ]);
    const switches = await h.fawn.stores.documents.list("skill_state", "default");
    expect(switches.map((d) => [d.key, d.value])).toEqual([["beta", { enabled: false }]]);
    const one = await request(h, "GET", "/skills/beta");
    expect(await one.json()).toMatchObject({ name: "beta", enabled: false });
    const on = await request(h, "PUT", "/skills/beta", JSON.stringify({ enabled: true }));
    expect(await on.json()).toMatchObject({ name: "beta", enabled: true });
  });

  it("answers 404 for unknown (and invalid) skills", async () => {
    for (const [method, path, body] of [
      ["GET", "/skills/nope", undefined],
      ["PUT", "/skills/nope", JSON.stringify({ enabled: false })],
      ["PUT", "/skills/broken", JSON.stringify({ enabled: false })],
      ["PUT", "/skills/..%2F..%2Fetc", JSON.stringify({ enabled: false })],
    ] as const) {
      const response = await request(h, method, path, body);
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
      expect(await response.json()).toMatchObject({ code: "not_found" });
    }
  });

  it("answers 400 for a bad body and changes nothing", async () => {
    for (const body of [
      "",
      "not json",
      "{}",
      JSON.stringify({ enabled: "false" }),
      JSON.stringify({ enabled: false, extra: 1 }),
      JSON.stringify([false]),
    ]) {
      const response = await request(h, "PUT", "/skills/alpha", body);
      expect({ body, status: response.status }).toEqual({ body, status: 400 });
      expect(await response.json()).toHaveProperty("detail");
    }
    const alpha = await request(h, "GET", "/skills/alpha");
    expect(await alpha.json()).toMatchObject({ enabled: true });
  });
});

describe("skills routes under local auth", () => {
  let h: GatewayHarness;
  let alice: BrowserSession;
  let bob: BrowserSession;

  beforeAll(async () => {
    h = await startGatewayHarness({
      config: { skills: { path: root }, auth: { mode: "local", allow_registration: true } },
    });
    alice = await registerUser(h.apiUrl, "alice@example.org", "alice password");
    bob = await registerUser(h.apiUrl, "bob@example.org", "bob password 1");
  });

  afterAll(async () => {
    await h?.close();
  });

  it("needs a caller, and one user's switch does not change another's", async () => {
    expect((await request(h, "GET", "/skills")).status).toBe(401);
    const off = await request(
      h,
      "PUT",
      "/skills/alpha",
      JSON.stringify({ enabled: false }),
      cookieHeaders(alice),
    );
    expect(off.status).toBe(200);
    const enabledOf = async (session: BrowserSession) => {
      const body = (await (
        await request(h, "GET", "/skills", undefined, cookieHeaders(session))
      ).json()) as {
        skills: { name: string; enabled: boolean }[];
      };
      return Object.fromEntries(body.skills.map((skill) => [skill.name, skill.enabled]));
    };
    expect(await enabledOf(alice)).toEqual({ alpha: false, beta: true });
    expect(await enabledOf(bob)).toEqual({ alpha: true, beta: true });
  });
});
