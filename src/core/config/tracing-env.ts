import { type Env, isPlainObject } from "./env-expansion.js";

/** A variable read into a `tracing:` key: the first of `names` that is set wins. */
interface TracingVariable {
  names: readonly string[];
  path: readonly [string] | readonly [string, string];
  kind: "flag" | "text";
}

/**
 * The reference's tracing variables (LangSmith's and Langfuse's own) and OpenTelemetry's
 * standard ones. As with every `FAWN_*` variable, the environment beats the file.
 */
const TRACING_VARIABLES: readonly TracingVariable[] = [
  {
    names: ["LANGSMITH_TRACING", "LANGCHAIN_TRACING_V2", "LANGCHAIN_TRACING"],
    path: ["langsmith", "enabled"],
    kind: "flag",
  },
  {
    names: ["LANGSMITH_API_KEY", "LANGCHAIN_API_KEY"],
    path: ["langsmith", "api_key"],
    kind: "text",
  },
  {
    names: ["LANGSMITH_PROJECT", "LANGCHAIN_PROJECT"],
    path: ["langsmith", "project"],
    kind: "text",
  },
  {
    names: ["LANGSMITH_ENDPOINT", "LANGCHAIN_ENDPOINT"],
    path: ["langsmith", "endpoint"],
    kind: "text",
  },
  { names: ["LANGFUSE_TRACING"], path: ["langfuse", "enabled"], kind: "flag" },
  { names: ["LANGFUSE_PUBLIC_KEY"], path: ["langfuse", "public_key"], kind: "text" },
  { names: ["LANGFUSE_SECRET_KEY"], path: ["langfuse", "secret_key"], kind: "text" },
  {
    names: ["LANGFUSE_BASE_URL", "LANGFUSE_HOST", "LANGFUSE_BASEURL"],
    path: ["langfuse", "host"],
    kind: "text",
  },
  {
    names: ["LANGFUSE_TRACING_ENVIRONMENT"],
    path: ["langfuse", "environment"],
    kind: "text",
  },
  { names: ["OTEL_SERVICE_NAME"], path: ["service_name"], kind: "text" },
];

const TRUTHY = new Set(["1", "true", "yes", "on"]);

/** Writes the tracing variables that are set into `input.tracing` (a non-mapping is left alone). */
export function applyTracingEnv(input: Record<string, unknown>, env: Env): void {
  const overrides: Array<[readonly string[], unknown]> = [];
  for (const variable of TRACING_VARIABLES) {
    const value = firstSet(env, variable.names);
    if (value === undefined) continue;
    overrides.push([
      variable.path,
      variable.kind === "flag" ? TRUTHY.has(value.toLowerCase()) : value,
    ]);
  }
  const endpoint = otlpTracesEndpoint(env);
  if (endpoint) overrides.push([["otlp_endpoint"], endpoint]);
  if (overrides.length === 0) return;
  const tracing = input.tracing ?? {};
  if (!isPlainObject(tracing)) return;
  const next: Record<string, unknown> = { ...tracing };
  for (const [path, value] of overrides) {
    const [section, key] = path;
    if (section === undefined) continue;
    if (key === undefined) {
      next[section] = value;
      continue;
    }
    const current = next[section] ?? {};
    if (isPlainObject(current)) next[section] = { ...current, [key]: value };
  }
  input.tracing = next;
}

/** OpenTelemetry's traces endpoint, or its base endpoint with the traces path appended. */
function otlpTracesEndpoint(env: Env): string | undefined {
  const traces = firstSet(env, ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"]);
  if (traces) return traces;
  const base = firstSet(env, ["OTEL_EXPORTER_OTLP_ENDPOINT"]);
  return base ? `${base.replace(/\/+$/, "")}/v1/traces` : undefined;
}

function firstSet(env: Env, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  return undefined;
}
