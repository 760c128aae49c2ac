import { Hono } from "hono";
import { z } from "zod";
import type { Skill } from "../../agent/skills/skill.js";
import { skillCatalogFromConfig } from "../../agent/skills/skill-catalog.js";
import { BadRequestError } from "../../core/errors.js";
import type { GatewayServices } from "../gateway-services.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import { readJsonBody } from "../http/validation.js";

/** A skill as the API shows it (the reference's SkillResponse fields). */
export interface ApiSkill {
  name: string;
  description: string;
  license: string | null;
  category: Skill["category"];
  enabled: boolean;
  /** Fawn has no skill-editing API yet. */
  editable: boolean;
}

const toggleBody = z.strictObject({ enabled: z.boolean() });

/**
 * `GET /skills`, `GET /skills/{name}`, `PUT /skills/{name}` `{enabled}`: the caller's skills
 * (public ones plus their own custom ones) and the caller's own on/off switches; a switch
 * applies from the caller's next run. Unknown names are 404, a bad body 400.
 */
export function skillRoutes(s: GatewayServices): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  const catalog = skillCatalogFromConfig(s.config, { logger: s.logger });

  app.get("/skills", async (c) => {
    const skills = await catalog.list(c.get("principal").userId);
    return c.json({ skills: skills.map(toApiSkill) });
  });

  app.get("/skills/:name", async (c) =>
    c.json(toApiSkill(await catalog.get(c.get("principal").userId, c.req.param("name")))),
  );

  app.put("/skills/:name", async (c) => {
    const parsed = toggleBody.safeParse(await readJsonBody(c));
    if (!parsed.success) {
      throw new BadRequestError('Send a JSON body {"enabled": true} or {"enabled": false}.');
    }
    const userId = c.get("principal").userId;
    const skill = await catalog.setEnabled(userId, c.req.param("name"), parsed.data.enabled);
    s.logger.info({ userId, skill: skill.name, enabled: skill.enabled }, "skill switched");
    return c.json(toApiSkill(skill));
  });

  return app;
}

function toApiSkill(skill: Skill): ApiSkill {
  return {
    name: skill.name,
    description: skill.description,
    license: skill.license,
    category: skill.category,
    enabled: skill.enabled,
    editable: false,
  };
}
