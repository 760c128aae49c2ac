import { toJsonSchema } from "@langchain/core/utils/json_schema";
import { isZodSchemaV3, isZodSchemaV4 } from "@langchain/core/utils/types";
import {
  getConfigTypeSchema,
  getInputTypeSchema,
  getOutputTypeSchema,
  getStateTypeSchema,
} from "@langchain/langgraph/zod/schema";

/*
 * A compiled graph's JSON Schemas, derived at run time from what its builder keeps, in the order
 * LangGraph's own server tries: a `StateSchema` or a zod schema registered with
 * `@langchain/langgraph/zod` (both keep `jsonSchemaExtra`, e.g. `langgraph_type: "messages"`),
 * then any zod object (v3 or v4) converted directly. A graph whose state is an `Annotation` has
 * no runtime types: its schemas list the state's channels with no type. A schema nothing can be
 * derived for is null.
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

export function deriveSchemas(graph: unknown): DerivedSchemas {
  const builder = builderOf(graph);
  if (!builder) return { state: null, input: null, output: null, config: null };
  const registered = safely(() => ({
    state: getStateTypeSchema(graph),
    input: getInputTypeSchema(graph),
    output: getOutputTypeSchema(graph),
    config: getConfigTypeSchema(graph),
  }));
  const direct = directZod(builder);
  const channels = channelSchemas(builder);
  return {
    state: registered?.state ?? direct.state ?? channels.state,
    input: registered?.input ?? direct.input ?? channels.input,
    output: registered?.output ?? direct.output ?? channels.output,
    config: registered?.config ?? direct.config ?? null,
  };
}

type Builder = Record<string | symbol, unknown>;

function builderOf(graph: unknown): Builder | null {
  if (typeof graph !== "object" || graph === null) return null;
  const builder: unknown = Reflect.get(graph, "builder");
  return typeof builder === "object" && builder !== null ? (builder as Builder) : null;
}

/** Zod schemas the registry does not know (another copy of LangGraph, or never registered). */
function directZod(builder: Builder): DerivedSchemas {
  const convert = (schema: unknown): unknown =>
    isZodSchemaV4(schema) || isZodSchemaV3(schema)
      ? (safely(() => toJsonSchema(schema)) ?? null)
      : null;
  const state = convert(builder._schemaRuntimeDefinition);
  const inputDef = builder._inputRuntimeDefinition;
  const input =
    inputDef === PARTIAL_STATE || inputDef === undefined
      ? withoutRequired(state)
      : convert(inputDef);
  return {
    state,
    input,
    output: convert(builder._outputRuntimeDefinition),
    config: convert(builder._configRuntimeSchema),
  };
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

function withoutRequired(schema: unknown): unknown {
  if (typeof schema !== "object" || schema === null) return null;
  const { required: _required, ...rest } = schema as Record<string, unknown>;
  return rest;
}

function safely<T>(derive: () => T): T | undefined {
  try {
    return derive();
  } catch {
    // A schema the converter cannot express is reported as underivable, never as a failure.
    return undefined;
  }
}
