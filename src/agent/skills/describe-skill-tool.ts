import { type StructuredToolInterface, tool } from "@langchain/core/tools";
import { z } from "zod";
import { type Skill, skillContainerFile } from "./skill.js";

/**
 * `describe_skill` (`skills.deferred_discovery`): the prompt lists skill names only, and the agent
 * asks here what one is for and where its SKILL.md is. It answers from the run's enabled skills,
 * so a disabled or unknown name is refused with the names it may use.
 */
export function createDescribeSkillTool(
  skills: readonly Skill[],
  containerPath: string,
): StructuredToolInterface {
  const byName = new Map(skills.map((skill) => [skill.name, skill]));
  return tool(
    async ({ name }) => {
      const skill = byName.get(name.trim());
      if (!skill) {
        const known = [...byName.keys()].sort().join(", ") || "none";
        return `Error: no enabled skill named '${name}'. Enabled skills: ${known}.`;
      }
      const lines = [
        `name: ${skill.name}`,
        `description: ${skill.description}`,
        `location: ${skillContainerFile(skill, containerPath)}`,
      ];
      if (skill.allowedTools !== null) {
        lines.push(`allowed-tools: ${skill.allowedTools.join(", ") || "(none)"}`);
      }
      lines.push("Read the SKILL.md at the location with read_file before using the skill.");
      return lines.join("\n");
    },
    {
      name: "describe_skill",
      description:
        "Describe one of the skills listed by name in your instructions: what it is for and where its SKILL.md is.",
      schema: z.object({ name: z.string().min(1).describe("The skill's name, as listed.") }),
    },
  );
}
