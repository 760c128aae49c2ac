import { Command, Send } from "@langchain/langgraph";
import type { GotoJson, GraphCommandJson } from "../ports/run-types.js";

/** Rebuild the LangGraph `Command` a stored command stands for. */
export function toGraphCommand(json: GraphCommandJson): Command {
  const goto =
    json.goto == null
      ? undefined
      : Array.isArray(json.goto)
        ? json.goto.map(toGoto)
        : [toGoto(json.goto)];
  return new Command({
    ...(json.resume !== undefined ? { resume: json.resume } : {}),
    ...(goto ? { goto } : {}),
    ...(json.update != null ? { update: json.update } : {}),
  });
}

function toGoto(entry: GotoJson): string | Send {
  return typeof entry === "string" ? entry : new Send(entry.node, entry.input ?? {});
}
