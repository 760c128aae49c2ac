/** A guard's answer for one tool call. */
export interface GuardrailDecision {
  allow: boolean;
  code: string;
  reason: string;
}

export interface AllowlistPolicy {
  evaluate(toolName: string): GuardrailDecision;
}

/**
 * The reference's AllowlistProvider: with `allowed` set, only those tools run (an empty list allows
 * none — no list at all allows every tool); `denied` tools never run.
 */
export function allowlistPolicy(
  allowed: readonly string[] | undefined,
  denied: readonly string[],
): AllowlistPolicy {
  const allow = allowed === undefined ? null : new Set(allowed);
  const deny = new Set(denied);
  return {
    evaluate(toolName) {
      if (allow !== null && !allow.has(toolName)) {
        return {
          allow: false,
          code: "oap.tool_not_allowed",
          reason: `tool '${toolName}' not in allowlist`,
        };
      }
      if (deny.has(toolName)) {
        return {
          allow: false,
          code: "oap.tool_not_allowed",
          reason: `tool '${toolName}' is denied`,
        };
      }
      return { allow: true, code: "oap.allowed", reason: "allowed" };
    },
  };
}
