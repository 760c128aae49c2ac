import { Command, Send } from "@langchain/langgraph";

/**
 * A LangGraph `Command` as it travels in JSON (an API request, a run's durable kwargs):
 * `resume` answers a pending `interrupt()`, `goto` names the next node(s) (a `{node, input}` entry
 * is a `Send`), `update` writes state first.
 */
export interface GraphCommandJson {
  resume?: unknown;
  goto?: GotoJson | GotoJson[] | null;
  update?: Record<string, unknown> | Array<[string, unknown]> | null;
}

export type GotoJson = string | { node: string; input?: unknown };

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
