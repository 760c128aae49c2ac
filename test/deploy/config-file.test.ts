import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { parseConfig } from "../../src/core/config/load-config.js";
import { readRepoFile } from "./deploy-files.js";

// What the deployments provide: the env files / Secrets, and the image's ENV.
const ENV = {
  FAWN_HOME: "/var/lib/fawn",
  FAWN_HOST: "0.0.0.0",
  FAWN_PORT: "2026",
  FAWN_DATABASE_URL: "postgres://fawn:pw@postgres:5432/fawn",
  FAWN_REDIS_URL: "redis://redis:6379",
  OPENAI_API_KEY: "sk-test",
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

describe("the shipped config.yaml files parse with Fawn's own parser", () => {
  it("deploy/config.yaml (compose), without warnings", async () => {
    const raw: unknown = parseYaml(await readRepoFile("deploy/config.yaml"));
    const { config, warnings } = parseConfig(raw, { env: ENV, source: "/etc/fawn/config.yaml" });
    expect(warnings).toEqual([]);
    expect(config.server.host).toBe("0.0.0.0");
    expect(config.database.url).toBe(ENV.FAWN_DATABASE_URL);
    expect(config.auth.mode).toBe("local");
  });

  it("the Helm chart's ConfigMap (values.config), without warnings", async () => {
    const values: unknown = parseYaml(await readRepoFile("deploy/helm/fawn/values.yaml"));
    const raw = isRecord(values) ? values.config : undefined;
    expect(isRecord(raw)).toBe(true);
    const { config, warnings } = parseConfig(raw, { env: ENV, source: "/etc/fawn/config.yaml" });
    expect(warnings).toEqual([]);
    expect(config.stream_bridge.redis_url).toBe(ENV.FAWN_REDIS_URL);
  });

  it("FAWN_HOST binds the server whatever the file says", () => {
    const { config } = parseConfig({ server: { host: "127.0.0.1" } }, { env: { FAWN_HOST: "::" } });
    expect(config.server.host).toBe("::");
    expect(parseConfig({}, { env: {} }).config.server.host).toBe("127.0.0.1");
  });
});
