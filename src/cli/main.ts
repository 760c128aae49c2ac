import { Command, InvalidArgumentError } from "commander";
import { FAWN_VERSION } from "../gateway/system-routes.js";
import { doctorCommand } from "./doctor/doctor-command.js";
import { tokenCommand } from "./token-command.js";
import { userCommand } from "./user-command.js";

/** The `fawn` command line. */
export function buildProgram(): Command {
  const program = new Command()
    .name("fawn")
    .description("Self-hostable super-agent harness with a LangGraph-compatible API.")
    .version(FAWN_VERSION);
  program
    .command("serve")
    .description("Serve the HTTP API and the agent runtime (config.yaml + FAWN_* environment).")
    .option(
      "-p, --port <port>",
      "port to listen on (overrides FAWN_PORT and server.port)",
      parsePort,
    )
    .option("--host <host>", "interface to bind (overrides server.host)")
    .option(
      "--langgraph-json <path>",
      "serve the graphs of this langgraph.json (default: ./langgraph.json when present)",
    )
    .action(async (options: { port?: number; host?: string; langgraphJson?: string }) => {
      // Loaded on demand: the server pulls in the whole runtime, other commands should start fast.
      const { serve } = await import("./serve.js");
      await serve(options);
    });
  program
    .command("run")
    .description("Run one task with the lead agent in-process: live progress, answer, artifacts.")
    .argument("<task>", "what the agent should do")
    .option("-m, --model <name>", "model to use (a name from config.yaml models:, or demo)")
    .action(async (task: string, options: { model?: string }) => {
      // Loaded on demand, like serve: the runtime is heavy.
      const { runCommand } = await import("./run-command.js");
      await runCommand(task, options.model);
    });
  program
    .command("demo")
    .description("Run the offline demo model's task end to end and print the report's path.")
    .action(async () => {
      const { demoCommand } = await import("./demo-command.js");
      await demoCommand();
    });
  program
    .command("mock-openai")
    .description("Serve a model script as an OpenAI-compatible API (for tests and demos).")
    .requiredOption("-s, --script <file>", "script file (YAML or JSON)")
    .option("-p, --port <port>", "port to listen on (default 2027)", parsePort)
    .option("--host <host>", "interface to bind (default 127.0.0.1)")
    .action(async (options: { script: string; port?: number; host?: string }) => {
      const { mockOpenAICommand } = await import("./mock-openai-command.js");
      await mockOpenAICommand(options);
    });
  program.addCommand(userCommand());
  program.addCommand(tokenCommand());
  program.addCommand(doctorCommand());
  return program;
}

function parsePort(value: string): number {
  const port = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(port >= 0 && port <= 65_535))
    throw new InvalidArgumentError("expected a port number from 0 to 65535");
  return port;
}

await buildProgram()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    process.stderr.write(`fawn: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
