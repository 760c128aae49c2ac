/**
 * The container provider. Its contract suite needs a Docker engine and is skipped — with the
 * reason — when none answers (this project's CI has none). What it must do without Docker —
 * fail with an error naming what is missing — is tested everywhere.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sandboxConfigSchema } from "../../src/core/config/schema.js";
import { FawnPaths } from "../../src/core/paths.js";
import { probeDocker } from "../../src/sandbox/container/docker-cli.js";
import { createSandboxProvider } from "../../src/sandbox/create-sandbox-provider.js";
import { SandboxUnavailableError } from "../../src/sandbox/sandbox-errors.js";
import { describeSandbox, makeSkillsDir } from "../conformance/sandbox.js";
import { warnSkipped } from "./helpers/require-bwrap.js";

const docker = await probeDocker();

if (docker.available) {
  describeSandbox("container", async () => {
    const home = await mkdtemp(join(tmpdir(), "fawn-container-sandbox-"));
    const paths = new FawnPaths(home);
    const skillsDir = await makeSkillsDir(home);
    const provider = await createSandboxProvider({
      config: sandboxConfigSchema.parse({ use: "container", container_prefix: "fawn-test" }),
      paths,
      skillsDir,
    });
    return {
      provider,
      paths,
      skillsDir,
      cleanup: () => rm(home, { recursive: true, force: true }),
    };
  });
} else {
  warnSkipped(
    "container sandbox contract tests",
    docker.detail,
    "They run wherever a Docker engine answers `docker version`.",
  );
}

describe("container provider without Docker", () => {
  const config = sandboxConfigSchema.parse({ use: "container" });
  const paths = new FawnPaths(join(tmpdir(), "fawn-container-absent"));

  it("names the missing Docker client", async () => {
    const error = await createSandboxProvider({
      config,
      paths,
      dockerPath: "/nonexistent/docker",
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxUnavailableError);
    expect((error as Error).message).toMatch(
      /Docker CLI \(\/nonexistent\/docker\) is not installed/,
    );
  });

  it.runIf(!docker.available)(
    "names the missing Docker engine when only the client exists",
    async () => {
      const error = await createSandboxProvider({ config, paths }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SandboxUnavailableError);
      expect((error as Error).message).toMatch(/^sandbox.use is container, but /);
      expect((error as Error).message).toMatch(/Docker/);
    },
  );
});
