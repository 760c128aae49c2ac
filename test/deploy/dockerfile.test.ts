import { DockerfileParser, type Instruction } from "dockerfile-ast";
import { beforeAll, describe, expect, it } from "vitest";
import { readRepoFile } from "./deploy-files.js";

interface Stage {
  name: string | null;
  image: string;
  instructions: Instruction[];
}

/** Stages in order, each with the instructions after its FROM. */
function stagesOf(text: string): Stage[] {
  const stages: Stage[] = [];
  for (const instruction of DockerfileParser.parse(text).getInstructions()) {
    const keyword = instruction.getKeyword();
    if (keyword === "FROM") {
      const args = instruction.getArguments().map((arg) => arg.getValue());
      const asAt = args.findIndex((arg) => arg.toUpperCase() === "AS");
      stages.push({
        name: asAt >= 0 ? (args[asAt + 1] ?? null) : null,
        image: args.find((arg) => !arg.startsWith("--")) ?? "",
        instructions: [],
      });
    } else {
      stages.at(-1)?.instructions.push(instruction);
    }
  }
  return stages;
}

function keywordArgs(stage: Stage, keyword: string): string[] {
  return stage.instructions
    .filter((instruction) => instruction.getKeyword() === keyword)
    .map((instruction) => instruction.getArgumentsContent() ?? "");
}

describe("deploy/Dockerfile", () => {
  let text = "";
  let stages: Stage[] = [];
  beforeAll(async () => {
    text = await readRepoFile("deploy/Dockerfile");
    stages = stagesOf(text);
  });

  it("is multi-stage: deps with npm ci, a web build, a node:20 bookworm-slim runtime", () => {
    expect(stages.map((stage) => stage.name)).toEqual(["deps", "build", "runtime"]);
    expect(keywordArgs(stages[0] as Stage, "RUN").join("\n")).toMatch(/\bnpm ci\b/);
    expect(keywordArgs(stages[1] as Stage, "RUN").join("\n")).toMatch(/npm run build:web/);
    expect(stages.at(-1)?.image).toBe("node:20-bookworm-slim");
  });

  it("pins every base image to a tag other than latest", () => {
    for (const stage of stages) {
      const tag = stage.image.includes(":") ? stage.image.split(":").at(-1) : undefined;
      expect(tag, `FROM ${stage.image}`).toBeDefined();
      expect(tag).not.toBe("latest");
    }
  });

  it("COPY --from names only earlier stages", () => {
    const seen: string[] = [];
    for (const stage of stages) {
      for (const copy of keywordArgs(stage, "COPY")) {
        const from = /--from=(\S+)/.exec(copy)?.[1];
        if (from !== undefined) expect(seen, `COPY --from=${from}`).toContain(from);
      }
      if (stage.name) seen.push(stage.name);
    }
    expect(seen).toContain("deps");
  });

  it("runs the final stage as a non-root user", () => {
    const users = keywordArgs(stages.at(-1) as Stage, "USER");
    expect(users.length).toBeGreaterThan(0);
    const last = (users.at(-1) ?? "").split(":")[0];
    expect(["", "root", "0"]).not.toContain(last);
  });

  it("installs bubblewrap and chromium from Debian in the runtime", () => {
    const run = keywordArgs(stages.at(-1) as Stage, "RUN").join("\n");
    expect(run).toMatch(/apt-get install[^\n]*\bbubblewrap\b/);
    expect(run).toMatch(/apt-get install[^\n]*\bchromium\b/);
  });

  it("exposes 2026, declares the FAWN_HOME volume and checks /health", () => {
    const runtime = stages.at(-1) as Stage;
    expect(keywordArgs(runtime, "EXPOSE")).toEqual(["2026"]);
    const env = keywordArgs(runtime, "ENV").join(" ");
    const home = /FAWN_HOME=(\S+)/.exec(env)?.[1];
    expect(home).toBeDefined();
    expect(keywordArgs(runtime, "VOLUME").join(" ")).toContain(`"${home}"`);
    expect(env).toMatch(/FAWN_HOST=0\.0\.0\.0/);
    const healthchecks = keywordArgs(runtime, "HEALTHCHECK");
    expect(healthchecks).toHaveLength(1);
    expect(healthchecks[0]).toMatch(/\/health\b/);
  });

  it("starts `fawn serve`", () => {
    const runtime = stages.at(-1) as Stage;
    expect(keywordArgs(runtime, "ENTRYPOINT").join(" ")).toContain("/app/bin/fawn.js");
    expect(keywordArgs(runtime, "CMD")).toEqual(['["serve"]']);
  });

  it("builds from a context without dependencies, builds or env files (.dockerignore)", async () => {
    const ignored = (await readRepoFile(".dockerignore")).split("\n").map((line) => line.trim());
    for (const pattern of ["**/node_modules", "dist", "web/dist", ".fawn", "**/*.env", ".git"]) {
      expect(ignored).toContain(pattern);
    }
  });
});
