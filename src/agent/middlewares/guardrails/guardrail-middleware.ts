import { ToolMessage } from "@langchain/core/messages";
import type { AgentMiddleware } from "../types.js";
import type { GuardrailSettings } from "./guardrail-config.js";

/**
 * Asks the guard before every tool call; a denied call gets an error result naming the reason, so
 * the agent can choose another way. If the guard itself fails, `fail_closed` decides. Each
 * denial is evidence (`middleware:guardrail`), without the call's arguments.
 */
export function createGuardrailMiddleware(settings: GuardrailSettings): AgentMiddleware {
  return {
    name: "GuardrailMiddleware",
    tag: "guardrail",
    async wrapToolCall(request, next, runtime) {
      const name = request.toolCall.name;
      let decision: ReturnType<GuardrailSettings["policy"]["evaluate"]>;
      try {
        decision = settings.policy.evaluate(name);
      } catch {
        if (!settings.failClosed) return next(request);
        decision = {
          allow: false,
          code: "oap.evaluator_error",
          reason: "the guardrail could not decide",
        };
      }
      if (decision.allow) return next(request);
      runtime.record("wrapToolCall", "denied", {
        tool_name: name,
        tool_call_id: request.toolCall.id ?? null,
        reason_code: decision.code,
      });
      return new ToolMessage({
        content: `Guardrail denied: tool '${name}' was blocked (${decision.code}). Reason: ${decision.reason}. Choose an alternative approach.`,
        tool_call_id: request.toolCall.id ?? "",
        name,
        status: "error",
      });
    },
  };
}
