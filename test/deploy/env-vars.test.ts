import { DockerfileParser } from "dockerfile-ast";
import { beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import {
  envFileNames,
  envVarsFawnReads,
  envVarsReferencedBy,
  readRepoFile,
} from "./deploy-files.js";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** What a gateway may be given: what src/ reads, plus the `$VARS` its config.yaml expands. */
async function readable(configText: string): Promise<Set<string>> {
  return new Set([...(await envVarsFawnReads()), ...envVarsReferencedBy(configText)]);
}

describe("every variable the deployment files set is one Fawn reads", () => {
  let fromSource = new Set<string>();
  beforeAll(async () => {
    fromSource = await envVarsFawnReads();
  });

  it("derives the set from src/ (sanity: the documented overrides are in it)", () => {
    for (const name of [
      "FAWN_HOME",
      "FAWN_HOST",
      "FAWN_PORT",
      "FAWN_CONFIG",
      "FAWN_DATABASE_URL",
    ]) {
      expect(fromSource).toContain(name);
    }
    expect(fromSource).toContain("OPENAI_API_KEY");
    expect(fromSource).not.toContain("FAWN_DATABSE_URL");
  });

  it("Dockerfile ENV", async () => {
    const dockerfile = await readRepoFile("deploy/Dockerfile");
    const set = DockerfileParser.parse(dockerfile)
      .getENVs()
      .flatMap((env) => env.getProperties().map((property) => property.getName()));
    expect(set.length).toBeGreaterThan(0);
    for (const name of set) expect(fromSource, `Dockerfile sets ${name}`).toContain(name);
  });

  it("compose gateways' environment and fawn.env", async () => {
    const allowed = await readable(await readRepoFile("deploy/config.yaml"));
    const doc: unknown = parseYaml(await readRepoFile("deploy/compose.yaml"), { merge: true });
    const services = isRecord(doc) && isRecord(doc.services) ? doc.services : {};
    const gateway = services["gateway-1"];
    const environment =
      isRecord(gateway) && isRecord(gateway.environment) ? gateway.environment : {};
    const envFile = envFileNames(await readRepoFile("deploy/fawn.env.example"));
    const set = [...Object.keys(environment), ...envFile];
    expect(set).toContain("FAWN_DATABASE_URL");
    for (const name of set) expect(allowed, `compose sets ${name}`).toContain(name);
  });

  it("Helm Deployment env", async () => {
    const values: unknown = parseYaml(await readRepoFile("deploy/helm/fawn/values.yaml"));
    const config = isRecord(values) ? values.config : {};
    const allowed = await readable(stringifyYaml(config));
    const deployment = await readRepoFile("deploy/helm/fawn/templates/deployment.yaml");
    const set = [...deployment.matchAll(/^\s*- name: ([A-Z][A-Z0-9_]*)\s*$/gm)].map(
      (match) => match[1] ?? "",
    );
    expect(set).toContain("FAWN_REDIS_URL");
    for (const name of set) expect(allowed, `the chart sets ${name}`).toContain(name);
  });
});
