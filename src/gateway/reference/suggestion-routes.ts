import type { Context } from "hono";
import { Hono } from "hono";
import { z } from "zod";
import { followUpSuggestions } from "../../agent/one-shot/follow-up-suggestions.js";
import type { OneShotModel } from "../../agent/one-shot/one-shot-model.js";
import { MAX_SUGGESTIONS_LIMIT } from "../../core/config/composer-assist-schema.js";
import type { ModelConfig } from "../../core/config/schema.js";
import { ModelUnavailableError, ValidationError } from "../../core/errors.js";
import type { GatewayServices } from "../gateway-services.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import { parseWith, pathId, readJsonBody } from "../http/validation.js";

/** The UI sends the last few visible turns; more than this is not a follow-up prompt. */
const MAX_TURNS = 20;
const MAX_TURN_CHARS = 20_000;

const suggestionsBody = z.object({
  messages: z
    .array(
      z.object({
        role: z.string().max(32),
        content: z.string().max(MAX_TURN_CHARS),
      }),
    )
    .max(MAX_TURNS),
  n: z.number().int().min(1).max(MAX_SUGGESTIONS_LIMIT).default(3),
  model_name: z.string().min(1).max(256).nullish(),
});

/**
 * `GET /suggestions/config` and `POST /threads/{id}/suggestions` (the caller's thread, else 404):
 * follow-up questions from one model call. Switched off or with nothing to follow, the answer is
 * an empty list; an unknown `model_name` is a 422; a model that cannot answer is a 503
 * `model_unavailable`.
 */
export function suggestionRoutes(s: GatewayServices, oneShot: OneShotModel): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  const settings = s.config.suggestions;

  app.get("/suggestions/config", (c) =>
    c.json({ enabled: settings.enabled, max_suggestions: settings.max_suggestions }),
  );

  app.post("/threads/:thread_id/suggestions", async (c) => {
    const threadId = pathId(c, "thread_id", "thread");
    const body = parseWith(suggestionsBody, await readJsonBody(c), "body");
    await s.threads.getOwned(threadId, owner(c));
    if (!settings.enabled || body.messages.length === 0) return c.json({ suggestions: [] });
    const suggestions = await followUpSuggestions(oneShot, {
      model: suggestionModel(oneShot, settings.model_name, body.model_name),
      turns: body.messages,
      count: Math.min(body.n, settings.max_suggestions),
      signal: c.req.raw.signal,
    });
    return c.json({ suggestions });
  });

  return app;
}

/** `suggestions.model_name` when set (the operator's choice), else the request's, else the default. */
function suggestionModel(
  oneShot: OneShotModel,
  configured: string | null,
  requested: string | null | undefined,
): ModelConfig {
  if (configured !== null) {
    const model = oneShot.modelFor(configured);
    if (model) return model;
    throw new ModelUnavailableError(
      `suggestions.model_name names "${configured}", which is not under models: in config.yaml; name a configured model or remove the key.`,
    );
  }
  const model = oneShot.modelFor(requested);
  if (model) return model;
  throw new ValidationError(
    `Unknown model '${requested ?? ""}'. GET /api/models lists the configured models.`,
  );
}

function owner(c: Context<GatewayEnv>): string {
  return c.get("principal").userId;
}
