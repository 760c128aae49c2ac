import { Hono } from "hono";
import { z } from "zod";
import { BadRequestError } from "../../core/errors.js";
import type { GatewayServices } from "../gateway-services.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import { readJsonBody } from "../http/validation.js";
import { toApiSkill } from "./api-skill.js";
import { customSkillRoutes } from "./custom-skill-routes.js";
import { skillInstallRoutes } from "./skill-install-route.js";

const toggleBody = z.strictObject({ enabled: z.boolean() });

/**
 * The reference's skills routes: `GET /skills`, `GET /skills/{name}`, `PUT /skills/{name}`
 * `{enabled}`, `POST /skills/install`, `POST /skills/reload` and the custom-skill routes under
 * `/skills/custom`. Everything is the caller's own: the public skills plus their custom ones, with
 * their own switches; a change applies from the caller's next run on any process.
 */
export function skillRoutes(s: GatewayServices): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  const { catalog } = s.skills;

  app.get("/skills", async (c) => {
    const skills = await catalog.list(c.get("principal").userId);
    return c.json({ skills: skills.map(toApiSkill) });
  });

  // Before `/skills/{name}`, so `install`, `reload` and `custom` are never taken for names.
  app.route("/", skillInstallRoutes(s));
  app.post("/skills/reload", (c) =>
    c.json({
      success: true,
      scope: "process",
      // Skills are read at every run, so there is no cache to drop; the answer keeps the shape.
      message: "Skills are read at every run; subsequent runs already see the latest skills.",
    }),
  );
  app.route("/", customSkillRoutes(s));

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
