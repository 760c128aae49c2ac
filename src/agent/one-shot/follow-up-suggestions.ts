import type { ModelConfig } from "../../core/config/schema.js";
import type { OneShotModel } from "./one-shot-model.js";
import { stripModelWrapping } from "./reply-text.js";

export const SUGGESTIONS_CALLER = "middleware:suggestions";

/** One turn of the conversation the suggestions follow, as the UI sends it. */
export interface SuggestionTurn {
  role: string;
  content: string;
}

export interface SuggestionsRequest {
  model: ModelConfig;
  turns: readonly SuggestionTurn[];
  count: number;
  signal?: AbortSignal;
}

/** Longest suggestion kept (characters); a model that rambles is cut, not trusted. */
const MAX_SUGGESTION_CHARS = 300;

/**
 * Short questions the user might ask next. An empty conversation asks nothing; a reply that is
 * not a JSON list of strings gives no suggestions (the UI then shows none); a model that cannot
 * answer is a `ModelUnavailableError`.
 */
export async function followUpSuggestions(
  oneShot: OneShotModel,
  request: SuggestionsRequest,
): Promise<string[]> {
  const conversation = transcript(request.turns);
  if (conversation === "") return [];
  const { count } = request;
  const reply = await oneShot.ask({
    model: request.model,
    caller: SUGGESTIONS_CALLER,
    system: [
      "You suggest what the user could ask next in this conversation.",
      `Write exactly ${count} short follow-up questions, each one line, in the language the user writes in, each about what was just discussed.`,
      'Answer with a JSON array of strings and nothing else, for example ["First question?", "Second question?"].',
    ].join("\n"),
    user: `The conversation so far:\n${conversation}\n\nGive ${count} follow-up questions as a JSON array.`,
    ...(request.signal ? { signal: request.signal } : {}),
  });
  return parseStringList(reply).slice(0, count);
}

function transcript(turns: readonly SuggestionTurn[]): string {
  return turns
    .map((turn) => {
      const text = turn.content.trim();
      if (text === "") return "";
      const role = turn.role.trim().toLowerCase();
      const speaker =
        role === "user" || role === "human"
          ? "User"
          : role === "assistant" || role === "ai"
            ? "Assistant"
            : turn.role.trim();
      return `${speaker}: ${text}`;
    })
    .filter((line) => line !== "")
    .join("\n");
}

/** The strings of the first `[...]` in the reply, one line each, blanks dropped. */
export function parseStringList(reply: string): string[] {
  const text = stripModelWrapping(reply);
  const start = text.indexOf("[");
  const end = text.lastIndexOf("]");
  if (start === -1 || end <= start) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.slice(start, end + 1));
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed
    .filter((item): item is string => typeof item === "string")
    .map((item) => item.replace(/\s+/g, " ").trim().slice(0, MAX_SUGGESTION_CHARS))
    .filter((item) => item !== "");
}
