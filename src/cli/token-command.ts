import { Command } from "commander";
import { withConfiguredAuth } from "../app/configured-auth.js";
import { warnIfAuthDisabled } from "./user-command.js";

/** `fawn token create`: a personal API token for programs, printed once. */
export function tokenCommand(): Command {
  const token = new Command("token").description(
    "Personal API tokens (Authorization: Bearer fawn_…) in the configured database.",
  );
  token
    .command("create")
    .description("Create an API token for a user and print it once (stdout holds only the token).")
    .requiredOption("--user <email>", "the account the token acts for")
    .option("--name <name>", "a label to tell tokens apart", "cli")
    .action(async (options: { user: string; name: string }) => {
      await withConfiguredAuth(async ({ accounts, tokens }, config) => {
        const user = await accounts.findByEmail(options.user);
        const created = await tokens.create(user.id, options.name.trim().slice(0, 100) || "cli");
        process.stdout.write(`${created.token}\n`);
        process.stderr.write(
          `Created API token ${created.record.prefix}… (id ${created.record.id}) for ${user.email}. ` +
            "It is shown only now; store it safely.\n",
        );
        warnIfAuthDisabled(config);
      });
    });
  return token;
}
