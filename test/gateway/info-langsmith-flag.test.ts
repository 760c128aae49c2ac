/**
 * `GET /api/info`'s `flags.langsmith` says whether runs are traced to LangSmith
 * (`tracing.langsmith.enabled`), as the LangGraph server's own flag does.
 */
import { afterAll, describe, expect, it } from "vitest";
import { type ServedGateway, startServedGateway } from "../e2e/helpers/served-gateway.js";

const opened: ServedGateway[] = [];

afterAll(async () => {
  for (const served of opened.splice(0)) await served.close();
});

async function langsmithFlag(config: Record<string, unknown>): Promise<unknown> {
  const served = await startServedGateway({
    config: () => ({ sandbox: { use: "local" }, ...config }),
  });
  opened.push(served);
  const info = (await (await fetch(`${served.apiUrl}/info`)).json()) as {
    flags: Record<string, unknown>;
  };
  return info.flags.langsmith;
}

describe("the langsmith flag of /info", () => {
  it("is false without LangSmith tracing and true with it", async () => {
    expect(await langsmithFlag({})).toBe(false);
    expect(
      await langsmithFlag({
        tracing: {
          // Nothing runs, so nothing is sent to this endpoint.
          langsmith: { enabled: true, api_key: "test-key", endpoint: "http://127.0.0.1:9" },
        },
      }),
    ).toBe(true);
  });
});
