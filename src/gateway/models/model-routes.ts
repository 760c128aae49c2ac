import { Hono } from "hono";
import { z } from "zod";
import { DEMO_MODEL_NAME, demoModelConfig } from "../../agent/models/demo-model.js";
import { describeModel, listModels } from "../../agent/models/list-models.js";
import { NotFoundError } from "../../core/errors.js";
import type { GatewayServices } from "../gateway-services.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import { parseWith } from "../http/validation.js";
import { type ApiModel, toApiModel } from "./model-response.js";

const modelName = z.string().min(1).max(256);

/**
 * `GET /models` and `GET /models/{name}`: the models a run may name in `model_name`, first =
 * default. With none configured the offline demo is the one entry, labelled `offline_demo`.
 */
export function modelRoutes(s: GatewayServices): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  const config = s.config;

  app.get("/models", (c) =>
    c.json({
      models: listModels(config).map(toApiModel),
      token_usage: { enabled: config.token_usage?.enabled === true },
    }),
  );

  app.get("/models/:model_name", (c) => {
    const name = parseWith(modelName, c.req.param("model_name"), "path");
    return c.json(findModel(config, name));
  });

  return app;
}

/** A listed model, or the demo (runs accept `demo` by name even when other models are set). */
function findModel(config: GatewayServices["config"], name: string): ApiModel {
  const listed = listModels(config).find((model) => model.name === name);
  if (listed) return toApiModel(listed);
  if (name === DEMO_MODEL_NAME) return toApiModel(describeModel(demoModelConfig()));
  throw new NotFoundError(
    `Model '${name}' not found. GET /api/models lists the configured models.`,
  );
}
