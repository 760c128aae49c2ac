import { Hono } from "hono";
import { z } from "zod";
import type { Skill } from "../../agent/skills/skill.js";
import { BadRequestError } from "../../core/errors.js";
import type { GatewayServices } from "../gateway-services.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import { readJsonBody } from "../http/validation.js";
import { toApiSkill } from "./api-skill.js";

const contentBody = z.strictObject({ content: z.string() });
const rollbackBody = z.union([
  z.strictObject({ history_index: z.number().int().default(-1) }),
  z.strictObject({ version: z.number().int().min(1) }),
]);

/**
 * The caller's custom skills (the reference's `/skills/custom…`, plus `POST /skills/custom` to
 * write one from its SKILL.md): list, read with content, edit, delete, history, rollback.
 * Another user's skill of the same name is simply not there (404).
 */
export function customSkillRoutes(s: GatewayServices): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  const { catalog, custom } = s.skills;

  const withContent = async (userId: string, skill: Skill) => ({
    ...toApiSkill(skill),
    content: await custom.content(userId, skill.name),
  });

  app.get("/skills/custom", async (c) => {
    const skills = await catalog.list(c.get("principal").userId);
    return c.json({ skills: skills.filter((skill) => skill.editable === true).map(toApiSkill) });
  });

  app.post("/skills/custom", async (c) => {
    const body = parseBody(contentBody, await readJsonBody(c), '{"content": "<SKILL.md>"}');
    const userId = c.get("principal").userId;
    const skill = await custom.create(userId, body.content);
    return c.json(await withContent(userId, skill), 201);
  });

  app.get("/skills/custom/:name", async (c) => {
    const userId = c.get("principal").userId;
    const name = c.req.param("name");
    const content = await custom.content(userId, name);
    return c.json({ ...toApiSkill(await catalog.get(userId, name)), content });
  });

  app.put("/skills/custom/:name", async (c) => {
    const body = parseBody(contentBody, await readJsonBody(c), '{"content": "<SKILL.md>"}');
    const userId = c.get("principal").userId;
    const skill = await custom.edit(userId, c.req.param("name"), body.content);
    return c.json(await withContent(userId, skill));
  });

  app.delete("/skills/custom/:name", async (c) => {
    await custom.delete(c.get("principal").userId, c.req.param("name"));
    return c.json({ success: true });
  });

  app.get("/skills/custom/:name/history", async (c) =>
    c.json({ history: await custom.history(c.get("principal").userId, c.req.param("name")) }),
  );

  app.post("/skills/custom/:name/rollback", async (c) => {
    const body = parseBody(
      rollbackBody,
      await readJsonBody(c, { optional: true }),
      '{"history_index": -1} or {"version": <n>}',
    );
    const userId = c.get("principal").userId;
    const skill = await custom.rollback(userId, c.req.param("name"), body);
    return c.json(await withContent(userId, skill));
  });

  return app;
}

function parseBody<S extends z.ZodType>(schema: S, value: unknown, shape: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new BadRequestError(`Send a JSON body ${shape} (nothing else).`);
  return parsed.data;
}
