import { type SkillCatalog, skillCatalogFromConfig } from "../../agent/skills/skill-catalog.js";
import { CustomSkillService } from "../../agent/skills/stored/custom-skill-service.js";
import type { FawnConfig } from "../../core/config/schema.js";
import type { Logger } from "../../core/logger.js";
import type { DocumentStore } from "../../ports/document-store.js";

/** What the skills routes call: the catalog (list, switches) and the custom-skill writes. */
export interface SkillServices {
  catalog: SkillCatalog;
  custom: CustomSkillService;
}

export function createSkillServices(
  config: FawnConfig,
  documents: DocumentStore,
  logger: Logger,
): SkillServices {
  const catalog = skillCatalogFromConfig(config, { documents, logger });
  return {
    catalog,
    custom: new CustomSkillService(catalog, {
      install: config.skills.install,
      scan: config.skill_scan.enabled,
      logger,
    }),
  };
}
