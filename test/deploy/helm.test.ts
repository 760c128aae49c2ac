import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { DEPLOY, REPO, readRepoFile } from "./deploy-files.js";

const CHART = join(DEPLOY, "helm", "fawn");
const VALUES_REFERENCE = /\.Values((?:\.[A-Za-z_][A-Za-z0-9_]*)+)/g;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether `values` has the dotted path (a key whose value is empty or false still counts). */
function hasPath(values: unknown, path: string[]): boolean {
  let node = values;
  for (const key of path) {
    if (!isRecord(node) || !Object.hasOwn(node, key)) return false;
    node = node[key];
  }
  return true;
}

/** Every gateway source file's text, concatenated: where the probed routes must be declared. */
async function gatewaySources(): Promise<string> {
  const dir = join(REPO, "src", "gateway");
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile() && /(?<!\.test)\.ts$/.test(entry.name));
  const texts = await Promise.all(
    files.map((entry) => readFile(join(entry.parentPath, entry.name), "utf8")),
  );
  return texts.join("\n");
}

describe("deploy/helm/fawn", () => {
  let values: Record<string, unknown> = {};
  let templates: Map<string, string> = new Map();
  beforeAll(async () => {
    const parsed: unknown = parseYaml(await readFile(join(CHART, "values.yaml"), "utf8"));
    if (!isRecord(parsed)) throw new Error("values.yaml is not a mapping");
    values = parsed;
    const names = await readdir(join(CHART, "templates"));
    templates = new Map(
      await Promise.all(
        names.map(async (name) => {
          const text = await readFile(join(CHART, "templates", name), "utf8");
          return [name, text] as const;
        }),
      ),
    );
  });

  it("has a v2 Chart.yaml with a name and versions", async () => {
    const chart: unknown = parseYaml(await readFile(join(CHART, "Chart.yaml"), "utf8"));
    expect(isRecord(chart) && chart.apiVersion).toBe("v2");
    expect(isRecord(chart) && chart.name).toBe("fawn");
    expect(isRecord(chart) && typeof chart.version === "string").toBe(true);
    expect(isRecord(chart) && typeof chart.appVersion === "string").toBe(true);
  });

  it("ships the Deployment, Service, PDB, ConfigMap, PVC and an optional Ingress", () => {
    const kinds = [...templates.values()].flatMap((text) =>
      [...text.matchAll(/^kind: (\w+)$/gm)].map((match) => match[1]),
    );
    expect(kinds.sort()).toEqual(
      [
        "ConfigMap",
        "Deployment",
        "Ingress",
        "PersistentVolumeClaim",
        "PodDisruptionBudget",
        "Service",
      ].sort(),
    );
    expect(templates.get("ingress.yaml")).toMatch(/^\{\{- if \.Values\.ingress\.enabled \}\}/);
    expect(values.ingress).toMatchObject({ enabled: false });
  });

  it("references only values that values.yaml defines", () => {
    const missing: string[] = [];
    for (const [name, text] of templates) {
      for (const match of text.matchAll(VALUES_REFERENCE)) {
        const path = (match[1] ?? "").slice(1).split(".");
        if (!hasPath(values, path)) missing.push(`${name}: .Values.${path.join(".")}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("probes liveness and readiness on routes the gateway serves", async () => {
    const deployment = templates.get("deployment.yaml") ?? "";
    // Liveness restarts a stuck process; readiness takes a draining or cut-off one out of the Service.
    for (const [probe, path] of [
      ["livenessProbe", "/health/live"],
      ["readinessProbe", "/health/ready"],
    ]) {
      expect(deployment).toMatch(new RegExp(`${probe}:\\n\\s+httpGet:\\n\\s+path: ${path}\\n`));
    }
    const paths = [...deployment.matchAll(/httpGet:\n\s+path: (\S+)/g)].map((match) => match[1]);
    const routes = await gatewaySources();
    for (const path of paths) expect(routes, `a route for ${path}`).toContain(`.get("${path}"`);
  });

  it("takes the database URL, the Redis URL and API keys from Secrets", () => {
    const deployment = templates.get("deployment.yaml") ?? "";
    for (const variable of ["FAWN_DATABASE_URL", "FAWN_REDIS_URL"]) {
      expect(deployment).toMatch(
        new RegExp(`name: ${variable}\\n\\s+valueFrom:\\n\\s+secretKeyRef:`),
      );
    }
    expect(deployment).toMatch(/envFrom:\n\s+- secretRef:\n\s+name: \{\{ \.Values\.apiKeys/);
    expect(JSON.stringify(values)).not.toMatch(/sk-|postgres:\/\/|redis:\/\//);
  });

  it("gates a disruption budget and keeps the image tag off latest", () => {
    expect(values.podDisruptionBudget).toMatchObject({ enabled: true });
    expect(isRecord(values.image) && values.image.tag).not.toBe("latest");
  });

  it("mounts the ConfigMap's config.yaml where FAWN_CONFIG points", async () => {
    const deployment = templates.get("deployment.yaml") ?? "";
    expect(deployment).toMatch(/name: FAWN_CONFIG\n\s+value: \/etc\/fawn\/config\.yaml/);
    expect(deployment).toMatch(/mountPath: \/etc\/fawn\n/);
    expect(templates.get("configmap.yaml")).toContain("config.yaml: |");
    expect(await readRepoFile("deploy/helm/fawn/templates/configmap.yaml")).toContain(
      "toYaml .Values.config",
    );
  });
});
