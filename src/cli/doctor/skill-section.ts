import { stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { BUNDLED_SKILLS_DIR } from "../../agent/skills/skill-catalog.js";
import { discoverSkills } from "../../agent/skills/skill-discovery.js";
import type { FawnConfig } from "../../core/config/schema.js";
import { createLogger } from "../../core/logger.js";
import type { DoctorSection } from "./doctor-report.js";

/** Where skills come from: the public folder (`skills.path` or the bundled one) and users' own. */
export async function skillSection(
  config: Pick<FawnConfig, "home" | "skills">,
  baseDir: string,
): Promise<DoctorSection> {
  const root = config.skills.path ? resolve(baseDir, config.skills.path) : BUNDLED_SKILLS_DIR;
  const publicDir = join(root, "public");
  const exists = await stat(publicDir).then(
    (info) => info.isDirectory(),
    () => false,
  );
  const skills = exists
    ? await discoverSkills(publicDir, "public", createLogger({ level: "silent" }))
    : [];
  return {
    title: "skills",
    items: [
      exists
        ? {
            status: "ok",
            name: "public",
            detail: `${publicDir} (${skills.length} skill(s))`,
          }
        : {
            status: "warn",
            name: "public",
            detail: `${publicDir} does not exist (no public skills)`,
            hint: "point skills.path at a folder holding public/<skill>/SKILL.md, or remove it for the bundled skills",
          },
      {
        status: "ok",
        name: "custom",
        detail: `each user's own, in the database (installed or written through /api/skills); folders placed by hand under ${join(config.home, "users", "<user>", "skills", "custom")} are listed too`,
      },
    ],
  };
}
