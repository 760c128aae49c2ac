/** The bubblewrap provider against the shared sandbox contract. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sandboxConfigSchema } from "../../src/core/config/schema.js";
import { FawnPaths } from "../../src/core/paths.js";
import { createSandboxProvider } from "../../src/sandbox/create-sandbox-provider.js";
import { describeSandbox, makeSkillsDir } from "../conformance/sandbox.js";
import { requireBwrap } from "./helpers/require-bwrap.js";

const bwrapWorks = await requireBwrap();

if (bwrapWorks) {
  describeSandbox("bwrap", async () => {
    const home = await mkdtemp(join(tmpdir(), "fawn-bwrap-sandbox-"));
    const paths = new FawnPaths(home);
    const skillsDir = await makeSkillsDir(home);
    const provider = await createSandboxProvider({
      config: sandboxConfigSchema.parse({ use: "bwrap" }),
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
}
