import { ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { Command } from "@langchain/langgraph";
import { z } from "zod";
import type { TodoItem } from "../../lead-agent/thread-state.js";

export const WRITE_TODOS_TOOL = "write_todos";

const writeTodosSchema = z.object({
  todos: z
    .array(
      z.object({
        content: z.string().min(1).describe("What to do, in a short sentence."),
        status: z.enum(["pending", "in_progress", "completed"]),
      }),
    )
    .describe("The whole list, every time: it replaces the previous one."),
});

/** `write_todos` (plan mode): replaces the thread's `todos` with the list the model sends. */
export function createWriteTodosTool() {
  return tool(
    async (input, config) => {
      const todos: TodoItem[] = input.todos;
      const summary = `Updated todo list: ${todos.map((t) => `[${t.status}] ${t.content}`).join("; ")}`;
      const toolCallId = config.toolCall?.id;
      if (!toolCallId) return summary;
      return new Command({
        update: {
          todos,
          messages: [
            new ToolMessage({ content: summary, tool_call_id: toolCallId, name: WRITE_TODOS_TOOL }),
          ],
        },
      });
    },
    {
      name: WRITE_TODOS_TOOL,
      description:
        "Plan and track a multi-step task. Send the whole todo list each time; mark one item in_progress while you work on it and completed as soon as it is done.",
      schema: writeTodosSchema,
    },
  );
}
