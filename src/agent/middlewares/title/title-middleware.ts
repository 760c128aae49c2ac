import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { contentText, isAIMessage, isUserMessage } from "../conversation.js";
import { invokeMiddlewareModel } from "../middleware-model-call.js";
import type { AgentMiddleware } from "../types.js";
import { ORIGINAL_USER_CONTENT_KEY } from "../uploads/uploads-middleware.js";
import type { TitleConfig } from "./title-config.js";

const EXCERPT_CHARS = 500;
const FALLBACK_CHARS = 50;
const DEFAULT_TITLE = "New Conversation";
const DEFAULT_PROMPT = `You name conversations. Reply with only a title of at most {max_words} words that says what the user wants, in the user's language: no quotes, no trailing punctuation, nothing else.

For context, the assistant's first reply was:
<assistant_reply>
{assistant_reply}
</assistant_reply>

The user's first message follows.`;

/**
 * Gives a thread its title after the first exchange: when the state has no
 * title, exactly one user message and an answer, one side call to the model (tagged
 * `middleware:title`) names the conversation. If that fails, the title is the start of the
 * user's message. The user's text is the last message of the call, so a scripted model's
 * default title is its first words.
 */
export function createTitleMiddleware(config: TitleConfig): AgentMiddleware {
  return {
    name: "TitleMiddleware",
    tag: "title",
    async afterModel(state, runtime) {
      if (!config.enabled || state.title) return undefined;
      const users = state.messages.filter(isUserMessage);
      const firstAnswer = state.messages.find(isAIMessage);
      const user = users[0];
      if (users.length !== 1 || !user || !firstAnswer) return undefined;
      const original: unknown = user.additional_kwargs[ORIGINAL_USER_CONTENT_KEY];
      const userText = (typeof original === "string" ? original : contentText(user.content)).trim();
      const prompt = (config.prompt_template ?? DEFAULT_PROMPT)
        .replaceAll("{max_words}", String(config.max_words))
        .replaceAll("{assistant_reply}", contentText(firstAnswer.content).slice(0, EXCERPT_CHARS));
      let title: string;
      let source: "model" | "fallback" = "model";
      try {
        const answer = await invokeMiddlewareModel(
          runtime,
          "middleware:title",
          [new SystemMessage(prompt), new HumanMessage(userText.slice(0, EXCERPT_CHARS))],
          config.model_name,
        );
        title = cleanTitle(answer, config);
      } catch (error) {
        if (runtime.config.signal?.aborted) throw error;
        title = "";
      }
      if (!title) {
        source = "fallback";
        title = fallbackTitle(userText, config);
      }
      runtime.record("afterModel", "set_title", { title, source });
      return { update: { title } };
    },
  };
}

/** First line, no quotes or "Title:" prefix, within the word and character limits. */
export function cleanTitle(answer: string, config: Pick<TitleConfig, "max_words" | "max_chars">) {
  const line = answer.split("\n").find((l) => l.trim() !== "") ?? "";
  const unquoted = line
    .trim()
    .replace(/^title\s*:\s*/i, "")
    .replace(/^["'`“”‘’*#\s]+|["'`“”‘’*\s]+$/g, "");
  const words = unquoted
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, config.max_words)
    .join(" ")
    .replace(/[\s.,;:!?。，！？]+$/, "");
  return words.length <= config.max_chars ? words : `${words.slice(0, config.max_chars - 3)}...`;
}

function fallbackTitle(userText: string, config: Pick<TitleConfig, "max_chars">): string {
  const text = userText.replace(/\s+/g, " ").trim();
  if (!text) return DEFAULT_TITLE;
  const limit = Math.min(config.max_chars, FALLBACK_CHARS);
  return text.length <= limit ? text : `${text.slice(0, limit - 3)}...`;
}
