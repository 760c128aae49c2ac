import type { Context } from "hono";
import { Hono } from "hono";
import { z } from "zod";
import {
  type AgentDefinition,
  agentCreateSchema,
  agentNameProblem,
  agentUpdateSchema,
  applyUpdate,
  definitionFromCreate,
  normalizeAgentName,
  USER_PROFILE_MAX_CHARS,
} from "../../agent/custom-agents/agent-definition.js";
import { selectModelConfig } from "../../agent/models/list-models.js";
import { FawnError, NotFoundError, ValidationError } from "../../core/errors.js";
import type { GatewayServices } from "../gateway-services.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import { parseWith, readJsonBody } from "../http/validation.js";

const profileSchema = z.strictObject({
  content: z.string().max(USER_PROFILE_MAX_CHARS).default(""),
});

/**
 * The reference's custom-agent API, per caller: `GET/POST /agents`, `GET /agents/check`,
 * `GET/PUT/DELETE /agents/{name}`, and the caller's profile at `GET/PUT /user-profile`. Every
 * route answers 403 unless `agents_api.enabled` (the reference's switch, with its sentence, which
 * the reference UI recognises). A bad definition is a 422 naming the field; nothing is stored.
 */
export function agentRoutes(s: GatewayServices): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  const store = s.customAgents;
  const config = s.config;

  app.use("/agents", requireEnabled(s));
  app.use("/agents/*", requireEnabled(s));
  app.use("/user-profile", requireEnabled(s));

  app.get("/agents", async (c) => c.json({ agents: await store.list(owner(c)) }));

  app.get("/agents/check", async (c) => {
    const name = agentName(c.req.query("name"));
    return c.json({ available: !(await store.exists(owner(c), name)), name });
  });

  app.get("/agents/:name", async (c) => {
    const name = agentName(c.req.param("name"));
    return c.json(found(await store.get(owner(c), name), name));
  });

  app.post("/agents", async (c) => {
    const request = parseWith(agentCreateSchema, await readJsonBody(c), "body");
    const name = agentName(request.name);
    checkModel(config, request.model);
    const created = await store.create(owner(c), definitionFromCreate(name, request));
    s.logger.info({ agent: name }, "custom agent created");
    return c.json(created, 201);
  });

  app.put("/agents/:name", async (c) => {
    const name = agentName(c.req.param("name"));
    const body = await readJsonBody(c, { optional: true });
    const request = parseWith(agentUpdateSchema, body, "body");
    const given = new Set(typeof body === "object" && body !== null ? Object.keys(body) : []);
    if (given.has("model")) checkModel(config, request.model);
    const updated = await store.update(owner(c), name, (current) =>
      applyUpdate(current, request, given),
    );
    return c.json(updated);
  });

  app.delete("/agents/:name", async (c) => {
    const name = agentName(c.req.param("name"));
    if (!(await store.delete(owner(c), name))) throw new NotFoundError(`Agent '${name}' not found`);
    s.logger.info({ agent: name }, "custom agent deleted");
    return c.body(null, 204);
  });

  app.get("/user-profile", async (c) => c.json({ content: await store.userProfile(owner(c)) }));

  app.put("/user-profile", async (c) => {
    const { content } = parseWith(profileSchema, await readJsonBody(c), "body");
    await store.setUserProfile(owner(c), content);
    return c.json({ content: content === "" ? null : content });
  });

  return app;
}

function requireEnabled(s: GatewayServices) {
  return async (_c: Context<GatewayEnv>, next: () => Promise<void>) => {
    if (s.config.agents_api.enabled !== true) {
      throw new FawnError(
        "forbidden",
        "Custom-agent management API is disabled. Set agents_api.enabled=true to expose agent and user-profile routes over HTTP.",
      );
    }
    await next();
  };
}

function owner(c: Context<GatewayEnv>): string {
  return c.get("principal").userId;
}

/** A valid agent name, lowercased (names are case-insensitive), else 422. */
function agentName(raw: string | undefined): string {
  if (raw === undefined) throw new ValidationError("Query parameter 'name' is required.");
  const problem = agentNameProblem(raw);
  if (problem !== null) throw new ValidationError(problem);
  return normalizeAgentName(raw);
}

function found(agent: AgentDefinition | null, name: string): AgentDefinition {
  if (agent === null) throw new NotFoundError(`Agent '${name}' not found`);
  return agent;
}

/** An agent's model must be configured (null or empty: the default model). */
function checkModel(config: GatewayServices["config"], model: string | null | undefined): void {
  if (!model) return;
  if (selectModelConfig(config, model).fellBack) {
    throw new ValidationError(
      `Unknown model '${model}'. Use a model name defined under \`models:\` in config.yaml.`,
    );
  }
}
