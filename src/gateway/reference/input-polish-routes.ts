import { Hono } from "hono";
import { z } from "zod";
import { polishDraft } from "../../agent/one-shot/input-polish.js";
import type { OneShotModel } from "../../agent/one-shot/one-shot-model.js";
import { BadRequestError, ModelUnavailableError, NotFoundError } from "../../core/errors.js";
import type { GatewayServices } from "../gateway-services.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import { parseWith, readJsonBody } from "../http/validation.js";

/** Bounds the raw text before trimming; `input_polish.max_chars` is checked after. */
const MAX_RAW_CHARS = 200_000;

const polishBody = z.object({
  text: z.string().max(MAX_RAW_CHARS),
  locale: z.string().max(64).nullish(),
  /** The reference sends it for tracing; Fawn reads nothing of the thread. */
  thread_id: z.string().max(128).nullish(),
});

/**
 * `POST /input-polish`: the composer's draft rewritten by one model call (no run, nothing
 * stored). 404 when `input_polish.enabled` is off; 400 for an empty or too long draft; 503
 * `model_unavailable` when the model cannot answer.
 */
export function inputPolishRoutes(s: GatewayServices, oneShot: OneShotModel): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  const settings = s.config.input_polish;

  app.post("/input-polish", async (c) => {
    if (!settings.enabled) {
      throw new NotFoundError(
        "Input polishing is disabled; set input_polish.enabled: true in config.yaml to offer it.",
      );
    }
    const body = parseWith(polishBody, await readJsonBody(c), "body");
    const text = body.text.trim();
    if (text === "") throw new BadRequestError("Input text is required; send the draft in `text`.");
    if (text.length > settings.max_chars) {
      throw new BadRequestError(
        `Input text exceeds ${settings.max_chars} characters; shorten the draft (input_polish.max_chars).`,
      );
    }
    const model = oneShot.modelFor(settings.model_name);
    if (!model) {
      throw new ModelUnavailableError(
        `input_polish.model_name names "${settings.model_name ?? ""}", which is not under models: in config.yaml; name a configured model or remove the key.`,
      );
    }
    const polished = await polishDraft(oneShot, {
      model,
      text,
      locale: body.locale ?? null,
      signal: c.req.raw.signal,
    });
    return c.json(polished);
  });

  return app;
}
