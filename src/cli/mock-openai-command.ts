import { runMockOpenAICommand } from "../agent/mock-openai/command.js";

export interface MockOpenAIOptions {
  script: string;
  port?: number;
  host?: string;
}

/** `fawn mock-openai --script <file> [--port <p>] [--host <h>]`: serves until SIGINT/SIGTERM. */
export async function mockOpenAICommand(options: MockOpenAIOptions): Promise<void> {
  await runMockOpenAICommand({
    script: options.script,
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.host ? { host: options.host } : {}),
  });
}
