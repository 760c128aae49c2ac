/*
 * Span attribute names. The `gen_ai.*` ones follow OpenTelemetry's GenAI semantic conventions,
 * which are still incubating: the conventions package advises copying them rather than importing
 * its unstable entry point.
 */
export const GEN_AI_OPERATION_NAME = "gen_ai.operation.name";
export const GEN_AI_PROVIDER_NAME = "gen_ai.provider.name";
export const GEN_AI_REQUEST_MODEL = "gen_ai.request.model";
export const GEN_AI_RESPONSE_MODEL = "gen_ai.response.model";
export const GEN_AI_RESPONSE_FINISH_REASONS = "gen_ai.response.finish_reasons";
export const GEN_AI_USAGE_INPUT_TOKENS = "gen_ai.usage.input_tokens";
export const GEN_AI_USAGE_OUTPUT_TOKENS = "gen_ai.usage.output_tokens";
export const GEN_AI_INPUT_MESSAGES = "gen_ai.input.messages";
export const GEN_AI_OUTPUT_MESSAGES = "gen_ai.output.messages";
export const GEN_AI_TOOL_NAME = "gen_ai.tool.name";
export const GEN_AI_TOOL_CALL_ID = "gen_ai.tool.call.id";
export const GEN_AI_TOOL_CALL_ARGUMENTS = "gen_ai.tool.call.arguments";
export const GEN_AI_TOOL_CALL_RESULT = "gen_ai.tool.call.result";
export const GEN_AI_AGENT_NAME = "gen_ai.agent.name";
export const GEN_AI_CONVERSATION_ID = "gen_ai.conversation.id";

/** Fawn's own attributes: ids and statuses, never user content. */
export const FAWN_RUN_ID = "fawn.run_id";
export const FAWN_THREAD_ID = "fawn.thread_id";
export const FAWN_ASSISTANT_ID = "fawn.assistant_id";
export const FAWN_GRAPH_ID = "fawn.graph_id";
export const FAWN_RUN_STATUS = "fawn.run.status";
export const FAWN_CALLER = "fawn.caller";
export const FAWN_TOOL_STATUS = "fawn.tool.status";
export const FAWN_FINALIZER_STAGE = "fawn.finalizer.stage";

/** Longest content value put on a span when content capture is on. */
export const MAX_CAPTURED_CHARS = 8_192;
