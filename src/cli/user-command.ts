import { text } from "node:stream/consumers";
import { Command } from "commander";
import { withConfiguredAuth } from "../app/configured-auth.js";
import type { FawnConfig } from "../core/config/schema.js";

interface PasswordOptions {
  passwordStdin?: boolean;
}

/** `fawn user add|set-password`: accounts for `auth.mode: local`, in the configured database. */
export function userCommand(): Command {
  const user = new Command("user").description(
    "Manage local accounts (auth.mode: local) in the configured database.",
  );
  user
    .command("add <email>")
    .description("Create an account (allowed even when self-registration is closed).")
    .option("--password-stdin", "read the password from standard input instead of a prompt")
    .action(async (email: string, options: PasswordOptions) => {
      const password = await readNewPassword(options);
      await withConfiguredAuth(async ({ accounts }, config) => {
        const created = await accounts.addUser(email, password);
        process.stdout.write(`Created user ${created.email} (id ${created.id}).\n`);
        warnIfAuthDisabled(config);
      });
    });
  user
    .command("set-password <email>")
    .description("Replace an account's password; its login sessions end (API tokens stay).")
    .option("--password-stdin", "read the password from standard input instead of a prompt")
    .action(async (email: string, options: PasswordOptions) => {
      const password = await readNewPassword(options);
      await withConfiguredAuth(async ({ accounts }) => {
        const updated = await accounts.setPassword(email, password);
        process.stdout.write(`Password changed for ${updated.email}; its sessions have ended.\n`);
      });
    });
  return user;
}

export function warnIfAuthDisabled(config: FawnConfig): void {
  if (config.auth.mode !== "local") {
    process.stderr.write(
      "note: auth.mode is not local, so the server does not ask for credentials yet (set FAWN_AUTH=local).\n",
    );
  }
}

/** Stdin for scripts (`--password-stdin`), else a hidden prompt typed twice. */
async function readNewPassword(options: PasswordOptions): Promise<string> {
  if (options.passwordStdin) return readStdinPassword();
  if (!process.stdin.isTTY) {
    throw new Error("no terminal to prompt for a password; pipe it in with --password-stdin");
  }
  const first = await promptHidden("Password: ");
  const second = await promptHidden("Repeat password: ");
  if (first !== second) throw new Error("the passwords do not match");
  return first;
}

/** All of stdin, without the one line break `echo` or a here-doc adds. */
async function readStdinPassword(): Promise<string> {
  return (await text(process.stdin)).replace(/\r?\n$/, "");
}

/** Reads one line from the terminal without echoing it. */
function promptHidden(prompt: string): Promise<string> {
  const { stdin, stderr } = process;
  stderr.write(prompt);
  stdin.setRawMode(true);
  stdin.setEncoding("utf8");
  stdin.resume();
  return new Promise((resolve, reject) => {
    let value = "";
    const finish = (): void => {
      stdin.off("data", onData);
      stdin.setRawMode(false);
      stdin.pause();
      stderr.write("\n");
    };
    const onData = (chunk: string): void => {
      for (const char of chunk) {
        if (char === "\r" || char === "\n") {
          finish();
          resolve(value);
          return;
        }
        if (char === "\u0003") {
          finish();
          reject(new Error("cancelled"));
          return;
        }
        value =
          char === "\u007f" || char === "\b" ? [...value].slice(0, -1).join("") : value + char;
      }
    };
    stdin.on("data", onData);
  });
}
