import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { CLARIFICATION_TYPES, FIELD_TYPES } from "./clarification-request.js";

export const ASK_CLARIFICATION_TOOL = "ask_clarification";

const askClarificationSchema = z.object({
  question: z.string().describe("The one question the user must answer before you can go on."),
  clarification_type: z
    .enum(CLARIFICATION_TYPES)
    .describe(
      "missing_info: something needed is missing; ambiguous_requirement: it can be read several ways; approach_choice: the user should pick an approach; risk_confirmation: confirm before a risky step; suggestion: propose something and ask.",
    ),
  context: z.string().optional().describe("Short background shown before the question."),
  options: z
    .array(z.string())
    .optional()
    .describe("Choices to offer (the user may still answer freely)."),
  fields: z
    .array(
      z.object({
        name: z.string(),
        label: z.string().optional(),
        type: z.enum(FIELD_TYPES).optional(),
        required: z.boolean().optional(),
        options: z.array(z.string()).optional(),
        placeholder: z.string().optional(),
      }),
    )
    .optional()
    .describe("A small form, when several values are needed at once."),
});

/**
 * `ask_clarification`: ends the turn with a question for the user. The ClarificationMiddleware
 * intercepts every call before this body runs; the body only answers when the tool is used
 * without the middleware.
 */
export function createAskClarificationTool() {
  return tool(async (input) => input.question, {
    name: ASK_CLARIFICATION_TOOL,
    description:
      "Ask the user a question and wait for the answer. Use it when the request is missing information, is ambiguous, or before a risky step; the turn ends until the user replies.",
    schema: askClarificationSchema,
    returnDirect: true,
  });
}
