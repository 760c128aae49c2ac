import { resolve } from "node:path";
import { loadScript } from "../scripted/load-script.js";
import { startMockOpenAI } from "./server.js";

export interface MockOpenAICommandArgs {
  /** Script file (YAML or JSON). */
  script: string;
  /** Default 2027 (next to Fawn's 2026). */
  port?: number;
  host?: string;
  /** Resolves relative script paths (default: the working directory). */
  cwd?: string;
  /** Stops the server (default: SIGINT / SIGTERM). */
  signal?: AbortSignal;
  /** Where the command reports (default: stdout). */
  print?: (line: string) => void;
}

export const DEFAULT_MOCK_OPENAI_PORT = 2027;

/**
 * `fawn mock-openai --script <file> --port <p>`: serves the script as an OpenAI-compatible API
 * until interrupted. Resolves once the server has closed.
 */
export async function runMockOpenAICommand(args: MockOpenAICommandArgs): Promise<void> {
  const print = args.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  const scriptPath = resolve(args.cwd ?? process.cwd(), args.script);
  const script = await loadScript(scriptPath);
  const server = await startMockOpenAI({
    script,
    port: args.port ?? DEFAULT_MOCK_OPENAI_PORT,
    host: args.host ?? "127.0.0.1",
  });
  print(`Mock OpenAI API serving ${scriptPath} (${script.rules.length} rules) at ${server.url}`);
  print(`Point a model at it: use: openai, base_url: ${server.url}, model: any, api_key: any`);
  await untilStopped(args.signal);
  await server.close();
  print("Mock OpenAI API stopped.");
}

function untilStopped(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolveStop) => {
    const stop = (): void => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      signal?.removeEventListener("abort", stop);
      resolveStop();
    };
    if (signal?.aborted) return stop();
    signal?.addEventListener("abort", stop, { once: true });
    if (!signal) {
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    }
  });
}
