import { toJsonSchema } from "@langchain/core/utils/json_schema";
import { isZodSchemaV3, isZodSchemaV4 } from "@langchain/core/utils/types";
import { META_EXTRAS_DESCRIPTION_PREFIX, schemaMetaRegistry } from "@langchain/langgraph/zod";
import {
  getConfigTypeSchema,
  getInputTypeSchema,
  getOutputTypeSchema,
  getStateTypeSchema,
} from "@langchain/langgraph/zod/schema";

/*
 * A compiled graph's JSON Schemas, derived at run time from what its builder keeps, in the order
 * LangGraph's own server tries: a `StateSchema`, or a zod schema registered with
 * `@langchain/langgraph/zod` (both keep `jsonSchemaExtra`, e.g. `langgraph_type: "messages"`),
 * then any zod object (v3 or v4) converted directly. A field JSON Schema cannot express (a
 * `z.custom<BaseMessage>()` message list) becomes `{}` with its extras instead of losing the
 * whole schema. A graph whose state is an `Annotation` has no runtime types: its schemas list the
 * state's channels, untyped. A schema nothing can be derived for is null.
 */

/** A graph's schemas, by role (LangGraph's server's own shape). */
export interface DerivedSchemas {
  state: unknown;
  input: unknown;
  output: unknown;
  /** JavaScript graphs declare one context schema; it is both `config_schema` and `context_schema`. */
  config: unknown;
}

const PARTIAL_STATE = Symbol.for("langgraph.state.partial");

type Builder = Record<string | symbol, unknown>;
type Effects = { withReducerSchema?: boolean; asPartial?: boolean };

export function deriveSchemas(graph: unknown): DerivedSchemas {
  const builder = builderOf(graph);
  if (!builder) return { state: null, input: null, output: null, config: null };
  const stateDef = builder._schemaRuntimeDefinition;
  const inputDef =
    builder._inputRuntimeDefinition === PARTIAL_STATE ? stateDef : builder._inputRuntimeDefinition;
  const update = { withReducerSchema: true, asPartial: true };
  const channels = channelSchemas(builder);
  return {
    state: safely(() => getStateTypeSchema(graph)) ?? lenient(stateDef, {}) ?? channels.state,
    input: safely(() => getInputTypeSchema(graph)) ?? lenient(inputDef, update) ?? channels.input,
    output:
      safely(() => getOutputTypeSchema(graph)) ??
      lenient(builder._outputRuntimeDefinition, {}) ??
      channels.output,
    config:
      safely(() => getConfigTypeSchema(graph)) ?? lenient(builder._configRuntimeSchema, {}) ?? null,
  };
}

function builderOf(graph: unknown): Builder | null {
  if (typeof graph !== "object" || graph === null) return null;
  const builder: unknown = Reflect.get(graph, "builder");
  return typeof builder === "object" && builder !== null ? (builder as Builder) : null;
}

/** A zod object converted with unrepresentable fields as `{}`, keeping registered extras. */
function lenient(schema: unknown, effects: Effects): unknown {
  if (!(isZodSchemaV4(schema) || isZodSchemaV3(schema))) return undefined;
  const extended =
    safely(() =>
      schemaMetaRegistry.getExtendedChannelSchemas(schema as never, {
        ...effects,
        withJsonSchemaExtrasAsDescription: true,
      }),
    ) ?? schema;
  const converted = safely(() => toJsonSchema(extended as never, { unrepresentable: "any" }));
  return converted === undefined ? undefined : withExtras(converted);
}

/** The registry carries `jsonSchemaExtra` as a `lg:{…}` description; spread it back. */
function withExtras(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withExtras);
  if (typeof schema !== "object" || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) out[key] = withExtras(value);
  const description = out.description;
  if (typeof description === "string" && description.startsWith(META_EXTRAS_DESCRIPTION_PREFIX)) {
    delete out.description;
    const extras = safely(() =>
      JSON.parse(description.slice(META_EXTRAS_DESCRIPTION_PREFIX.length)),
    );
    if (typeof extras === "object" && extras !== null) Object.assign(out, extras);
  }
  return out;
}

/** An `Annotation` state: its channel names, untyped. */
function channelSchemas(builder: Builder): Omit<DerivedSchemas, "config"> {
  const objectOf = (definition: unknown): unknown => {
    if (typeof definition !== "object" || definition === null) return null;
    const keys = Object.keys(definition).filter((key) => !key.startsWith("__"));
    if (keys.length === 0) return null;
    return { type: "object", properties: Object.fromEntries(keys.map((key) => [key, {}])) };
  };
  const state = objectOf(builder._schemaDefinition ?? builder.channels);
  return {
    state,
    input: objectOf(builder._inputDefinition) ?? state,
    output: objectOf(builder._outputDefinition) ?? state,
  };
}

function safely<T>(derive: () => T): T | undefined {
  try {
    return derive() ?? undefined;
  } catch {
    // A schema the converter cannot express is reported as underivable, never as a failure.
    return undefined;
  }
}
