import type { ModelConfig } from "../../core/config/schema.js";
import { ModelUnavailableError } from "../../core/errors.js";
import type { OneShotModel } from "./one-shot-model.js";
import { stripModelWrapping } from "./reply-text.js";

export const INPUT_POLISH_CALLER = "middleware:input_polish";

/** Where the draft sits in the request, so a scripted model (and a reader) can find it. */
export const DRAFT_OPEN = "<draft>";
export const DRAFT_CLOSE = "</draft>";

export interface PolishRequest {
  model: ModelConfig;
  /** The trimmed draft. */
  text: string;
  /** The UI's locale, a hint only. */
  locale?: string | null;
  signal?: AbortSignal;
}

export interface PolishedDraft {
  rewritten_text: string;
  changed: boolean;
}

/**
 * The draft rewritten as a clearer instruction for the agent (never answered, never sent as a
 * run). An empty rewrite counts as the model failing: `ModelUnavailableError`.
 */
export async function polishDraft(
  oneShot: OneShotModel,
  request: PolishRequest,
): Promise<PolishedDraft> {
  const locale = request.locale?.trim() || "the draft's own language";
  const reply = await oneShot.ask({
    model: request.model,
    caller: INPUT_POLISH_CALLER,
    system: [
      "You improve a message a user is about to send to an AI agent. Do not carry out the task.",
      "Make the goal, the scope, the constraints and the expected result explicit where the draft implies them; turn vague wishes into concrete criteria.",
      "Keep the user's language and intent, and keep names, file paths, URLs, code and a leading slash command exactly as written. Add no facts the draft does not imply.",
      "Stay brief (a short paragraph or a few bullets). Reply with the improved message only: no preface, no quotes, no alternatives.",
    ].join("\n"),
    user: `Language: ${locale}\n\nImprove this draft:\n${DRAFT_OPEN}\n${request.text}\n${DRAFT_CLOSE}`,
    ...(request.signal ? { signal: request.signal } : {}),
  });
  const rewritten = stripModelWrapping(reply);
  if (rewritten === "") {
    throw new ModelUnavailableError(
      `Model "${request.model.name}" gave an empty rewrite; try again or set input_polish.model_name to another model.`,
    );
  }
  return { rewritten_text: rewritten, changed: rewritten !== request.text };
}
