import { access } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { DEPLOY, readRepoFile } from "./deploy-files.js";

type Service = Record<string, unknown>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item) => typeof item === "string") : [];
}

describe("deploy/compose.yaml", () => {
  let services: Record<string, Service> = {};
  let volumes: Record<string, unknown> = {};
  beforeAll(async () => {
    // merge: the gateways share one `x-gateway` anchor through `<<`.
    const doc: unknown = parseYaml(await readRepoFile("deploy/compose.yaml"), { merge: true });
    if (!isRecord(doc) || !isRecord(doc.services)) throw new Error("compose.yaml has no services");
    services = Object.fromEntries(
      Object.entries(doc.services).filter((entry): entry is [string, Service] =>
        isRecord(entry[1]),
      ),
    );
    volumes = isRecord(doc.volumes) ? doc.volumes : {};
  });

  const gateways = () => Object.keys(services).filter((name) => name.startsWith("gateway"));

  it("runs two gateways of one image, PostgreSQL 16, Redis 7 and nginx", () => {
    expect(gateways()).toEqual(["gateway-1", "gateway-2"]);
    const images = gateways().map((name) => services[name]?.image);
    expect(new Set(images).size).toBe(1);
    expect(services.postgres?.image).toMatch(/^postgres:16\b/);
    expect(services.redis?.image).toMatch(/^redis:7\b/);
    expect(services.lb?.image).toMatch(/^nginx:/);
  });

  it("pins every image to a tag other than latest", () => {
    for (const [name, service] of Object.entries(services)) {
      const image = String(service.image);
      expect(image, name).toMatch(/:[^:/]+$/);
      expect(image.endsWith(":latest"), name).toBe(false);
    }
  });

  it("gives every service a healthcheck", () => {
    for (const [name, service] of Object.entries(services)) {
      const check = service.healthcheck;
      expect(isRecord(check) && stringList(check.test).length > 0, name).toBe(true);
    }
    for (const name of gateways()) {
      const check = services[name]?.healthcheck;
      expect(isRecord(check) ? stringList(check.test).join(" ") : "").toMatch(/\/health\b/);
    }
  });

  it("depends only on services that exist, each waiting for a condition", () => {
    for (const [name, service] of Object.entries(services)) {
      const dependsOn = service.depends_on;
      if (dependsOn === undefined) continue;
      expect(isRecord(dependsOn), `${name}.depends_on is a mapping with conditions`).toBe(true);
      for (const [target, spec] of Object.entries(isRecord(dependsOn) ? dependsOn : {})) {
        expect(Object.keys(services), `${name} depends on ${target}`).toContain(target);
        expect(isRecord(spec) ? spec.condition : undefined).toBe("service_healthy");
      }
    }
    expect(Object.keys(services.lb?.depends_on ?? {})).toEqual(gateways());
  });

  it("mounts only files and folders that exist, and named volumes it declares", async () => {
    for (const [name, service] of Object.entries(services)) {
      for (const mount of stringList(service.volumes)) {
        const source = mount.split(":")[0] ?? "";
        if (source.startsWith(".") || source.startsWith("/")) {
          await expect(access(join(DEPLOY, source)), `${name}: ${source}`).resolves.toBeUndefined();
        } else {
          expect(Object.keys(volumes), `${name}: volume ${source}`).toContain(source);
        }
      }
    }
  });

  it("takes secrets from env files that ship as examples, never inline", async () => {
    for (const [name, service] of Object.entries(services)) {
      for (const file of stringList(service.env_file)) {
        await expect(access(join(DEPLOY, `${file}.example`)), name).resolves.toBeUndefined();
      }
      const environment = isRecord(service.environment) ? service.environment : {};
      for (const key of Object.keys(environment)) {
        expect(key, `${name} sets ${key} inline`).not.toMatch(/KEY|TOKEN|SECRET|PASSWORD/);
        expect(String(environment[key]), `${name}.${key}`).not.toMatch(/:\/\/[^/@]*:[^/@]*@/);
      }
    }
    expect(stringList(services["gateway-1"]?.env_file)).toEqual(["fawn.env"]);
    expect(stringList(services.postgres?.env_file)).toEqual(["postgres.env"]);
  });

  it("turns response buffering off in the balancer (SSE)", async () => {
    const nginx = await readRepoFile("deploy/nginx.conf");
    expect(nginx).toMatch(/^\s*proxy_buffering off;/m);
    for (const name of gateways()) expect(nginx).toContain(`server ${name}:2026`);
  });
});
