import { errnoCode } from "../files/fs-error-mapping.js";
import { hostEnvWithoutSecrets } from "../process/command-env.js";
import { type ProcessOutcome, runProcess } from "../process/run-process.js";
import { SandboxUnavailableError } from "../sandbox-errors.js";

export interface DockerCallOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Extra environment for the client: `docker exec -e NAME` reads values from here. */
  env?: Record<string, string>;
  maxOutputBytes?: number;
}

/** Runs the Docker CLI asynchronously. A missing client is a clear `SandboxUnavailableError`. */
export async function runDocker(
  dockerPath: string,
  args: readonly string[],
  options: DockerCallOptions = {},
): Promise<ProcessOutcome> {
  try {
    return await runProcess({
      file: dockerPath,
      args,
      env: { ...hostEnvWithoutDockerSecrets(), ...options.env },
      timeoutMs: options.timeoutMs ?? 30_000,
      maxOutputBytes: options.maxOutputBytes ?? 1024 * 1024,
      signal: options.signal,
    });
  } catch (error) {
    if (errnoCode(error) === "ENOENT") {
      throw new SandboxUnavailableError(
        `The Docker CLI (${dockerPath}) is not installed; the container sandbox needs Docker. Install Docker, or use sandbox.use: bwrap.`,
      );
    }
    throw error;
  }
}

/** The client needs DOCKER_HOST and friends, but never our API keys. */
function hostEnvWithoutDockerSecrets(): Record<string, string> {
  const env = hostEnvWithoutSecrets();
  for (const name of ["DOCKER_HOST", "DOCKER_CONTEXT", "DOCKER_CONFIG", "DOCKER_CERT_PATH"]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

export interface DockerProbeResult {
  available: boolean;
  detail: string;
}

/** Whether a Docker engine answers (`docker version` asks the server, not just the client). */
export async function probeDocker(dockerPath = "docker"): Promise<DockerProbeResult> {
  let outcome: ProcessOutcome;
  try {
    outcome = await runDocker(dockerPath, ["version", "--format", "{{.Server.Version}}"], {
      timeoutMs: 10_000,
    });
  } catch (error) {
    return { available: false, detail: error instanceof Error ? error.message : String(error) };
  }
  const version = outcome.stdout.trim();
  if (outcome.exitCode === 0 && version !== "") {
    return { available: true, detail: `Docker engine ${version} answers (${dockerPath})` };
  }
  const why = outcome.timedOut
    ? "it did not answer in time"
    : outcome.stderr.trim().split("\n")[0] || `exit ${outcome.exitCode}`;
  return {
    available: false,
    detail: `the Docker client is installed but no Docker engine answers (${why}); start the Docker daemon or set DOCKER_HOST`,
  };
}
