/** A real `fawn serve` child process on an ephemeral port, for tests that stop or kill servers. */
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";

const CLI = new URL("../../bin/fawn.js", import.meta.url).pathname;

export interface ServeProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** `…/api` — the SDK's `apiUrl`. */
  apiUrl: string;
  exited: Promise<number | null>;
  /** What the server wrote to stderr so far (for failure messages). */
  stderr(): string;
}

/**
 * Starts `fawn serve --port 0` with FAWN_HOME = `home` and resolves once it listens. The test
 * process's FAWN_CONFIG / FAWN_PORT / FAWN_AUTH never leak in; `env` adds or overrides variables.
 */
export async function startFawnServe(
  home: string,
  env: Record<string, string | undefined> = {},
  /** `cli`: another entry to run with node (a bundled CLI starts faster than tsx). */
  options: { cli?: string } = {},
): Promise<ServeProcess> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, FAWN_HOME: home, FAWN_LOG_LEVEL: "warn" };
  for (const key of ["FAWN_CONFIG", "FAWN_PORT", "FAWN_AUTH"]) delete childEnv[key];
  Object.assign(childEnv, env);
  const child = spawn(process.execPath, [options.cli ?? CLI, "serve", "--port", "0"], {
    env: childEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => resolve(code)),
  );
  const lines = createInterface({ input: child.stdout ?? process.stdin });
  const stderr: string[] = [];
  child.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString()));
  for await (const line of lines) {
    const match = /listening on (http:\/\/\S+)/.exec(line);
    if (match?.[1]) {
      // Keep draining its output so a chatty server never blocks on a full pipe.
      lines.close();
      child.stdout?.resume();
      return {
        child,
        url: match[1],
        apiUrl: `${match[1]}/api`,
        exited,
        stderr: () => stderr.join(""),
      };
    }
  }
  throw new Error(`fawn serve exited before listening: ${stderr.join("")}`);
}
