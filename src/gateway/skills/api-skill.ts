import type { Skill } from "../../agent/skills/skill.js";

/** A skill as the API shows it (the reference's SkillResponse fields). */
export interface ApiSkill {
  name: string;
  description: string;
  license: string | null;
  category: Skill["category"];
  enabled: boolean;
  /** True for a custom skill kept by Fawn (installed or written through the API). */
  editable: boolean;
}

export function toApiSkill(skill: Skill): ApiSkill {
  return {
    name: skill.name,
    description: skill.description,
    license: skill.license,
    category: skill.category,
    enabled: skill.enabled,
    editable: skill.editable === true,
  };
}
