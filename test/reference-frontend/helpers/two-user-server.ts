import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Client } from "@langchain/langgraph-sdk";
import { createApiToken, registerUser } from "../../auth/helpers/http-session.js";
import { type ServedGateway, startServedGateway } from "../../e2e/helpers/served-gateway.js";

export type Who = "alice" | "bob";

export interface Answer {
  status: number;
  json: unknown;
  headers: Headers;
}

/** `fawn serve`'s server under `auth.mode: local` with two users, a scripted lead model. */
export interface ReferenceServer {
  server: ServedGateway;
  sdk: Record<Who, Client>;
  /** Plain HTTP under `/api`, as the reference's web UI calls its REST routes. */
  call(who: Who, method: string, path: string, body?: unknown): Promise<Answer>;
  /** A bearer header for `who`, for requests `call` does not build (multipart uploads). */
  auth(who: Who): Record<string, string>;
  /** One run of `text` on the thread (created when missing), waited to its end; its run id. */
  runToEnd(
    who: Who,
    threadId: string,
    text: string,
    extra?: Record<string, unknown>,
  ): Promise<string>;
  close(): Promise<void>;
}

/**
 * Starts the server with `script` (the scripted model's rules, see script-schema.ts) as the only
 * model, the local sandbox, titles and memory off (so scripted turns are the lead's alone).
 */
export async function startReferenceServer(
  script: unknown,
  config: Record<string, unknown> = {},
): Promise<ReferenceServer> {
  const server = await startServedGateway({
    config: (home) => ({
      models: [
        { name: "scripted", use: "scripted", model: "s", script: join(home, "script.json") },
      ],
      auth: { mode: "local", allow_registration: true },
      memory: { enabled: false },
      title: { enabled: false },
      sandbox: { use: "local" },
      ...config,
    }),
  });
  await writeFile(join(server.home, "script.json"), JSON.stringify(script));
  const tokens: Record<Who, string> = {
    alice: await createApiToken(
      server.apiUrl,
      await registerUser(server.apiUrl, "alice@example.org", "alice password"),
    ),
    bob: await createApiToken(
      server.apiUrl,
      await registerUser(server.apiUrl, "bob@example.org", "bob password 1"),
    ),
  };
  const auth = (who: Who) => ({ authorization: `Bearer ${tokens[who]}` });
  const sdk: Record<Who, Client> = {
    alice: server.client(auth("alice")),
    bob: server.client(auth("bob")),
  };
  return {
    server,
    sdk,
    auth,
    async call(who, method, path, body) {
      const response = await fetch(`${server.apiUrl}${path}`, {
        method,
        headers: { "content-type": "application/json", ...auth(who) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      let json: unknown = text;
      try {
        json = text === "" ? null : JSON.parse(text);
      } catch {
        // Not JSON (a file): the text itself.
      }
      return { status: response.status, json, headers: response.headers };
    },
    async runToEnd(who, threadId, text, extra = {}) {
      const client = sdk[who];
      const run = await client.runs.create(threadId, "lead_agent", {
        input: { messages: [{ type: "human", content: [{ type: "text", text }] }] },
        config: { configurable: { model_name: "scripted" } },
        ifNotExists: "create",
        ...extra,
      });
      await client.runs.join(threadId, run.run_id);
      return run.run_id;
    },
    close: () => server.close(),
  };
}
