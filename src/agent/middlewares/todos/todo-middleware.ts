import { type BaseMessage, HumanMessage } from "@langchain/core/messages";
import type { TodoItem } from "../../lead-agent/thread-state.js";
import { currentExchange, HIDDEN_MESSAGE_NAMES, isAIMessage } from "../conversation.js";
import { LOOP_CAPPED } from "../loop-detection/loop-detection-middleware.js";
import { ERROR_FALLBACK_KEY } from "../model-retry/model-retry-middleware.js";
import { SAFETY_TERMINATED } from "../safety-finish-reason/safety-finish-reason-middleware.js";
import { TOKEN_CAPPED } from "../token-budget/token-budget-middleware.js";
import type { AgentMiddleware } from "../types.js";
import { createWriteTodosTool, WRITE_TODOS_TOOL } from "./write-todos-tool.js";

/** Answers that ended the turn on purpose: a todo reminder must not restart the model. */
const FORCED_STOPS = new Set<string>([LOOP_CAPPED, TOKEN_CAPPED, SAFETY_TERMINATED]);

/** How often one exchange may send the model back because todos are unfinished. */
const MAX_COMPLETION_REMINDERS = 2;
const REMINDER_KIND = "reminder_kind";

const PLAN_MODE_PROMPT = `<todo_list>
You are in plan mode. For any task with more than two steps, call write_todos first with the whole plan, keep exactly one item in_progress while you work, and mark items completed as soon as they are done. Send the whole list each time. Do not finish while items are still pending or in progress: complete them, or update the list to say why they are no longer needed.
</todo_list>`;

/**
 * Plan mode: brings `write_todos`, explains it in the system prompt, reminds the
 * model of its list when the last `write_todos` call is no longer visible (e.g. summarized away),
 * and when the model tries to finish with unfinished todos, sends it back once or twice with a
 * reminder (kept in the thread, so the reason for the extra turn is visible).
 */
export function createTodoMiddleware(): AgentMiddleware {
  return {
    name: "TodoMiddleware",
    tag: "todos",
    tools: [createWriteTodosTool()],
    async wrapModelCall(request, next) {
      const systemPrompt = request.systemPrompt
        ? `${request.systemPrompt}\n\n${PLAN_MODE_PROMPT}`
        : PLAN_MODE_PROMPT;
      const todos = request.state.todos ?? [];
      if (todos.length === 0 || writeTodosVisible(request.messages)) {
        return next({ ...request, systemPrompt });
      }
      const reminder = todoReminder(
        `Your current todo list (your earlier write_todos call is no longer in view):\n${formatTodos(todos)}`,
        "list",
      );
      return next({ ...request, systemPrompt, messages: [...request.messages, reminder] });
    },
    async afterModel(state, runtime) {
      const last = state.messages.at(-1);
      if (!isAIMessage(last) || (last.tool_calls?.length ?? 0) > 0) return undefined;
      if (
        last.additional_kwargs[ERROR_FALLBACK_KEY] ||
        FORCED_STOPS.has(String(last.additional_kwargs.stop_reason))
      ) {
        return undefined;
      }
      const open = (state.todos ?? []).filter((todo) => todo.status !== "completed");
      if (open.length === 0) return undefined;
      const sent = currentExchange(state.messages).filter(
        (m) =>
          m.name === HIDDEN_MESSAGE_NAMES.todoReminder &&
          m.additional_kwargs[REMINDER_KIND] === "completion",
      ).length;
      if (sent >= MAX_COMPLETION_REMINDERS) return undefined;
      runtime.record("afterModel", "completion_reminder", {
        open_todos: open.length,
        reminder: sent + 1,
      });
      const reminder = todoReminder(
        `You have not finished your todo list:\n${formatTodos(open)}\nContinue with the next item, or call write_todos to mark items completed or explain why they are no longer needed. Then give your final answer.`,
        "completion",
      );
      return { update: { messages: [reminder] }, jumpTo: "model" };
    },
  };
}

function writeTodosVisible(messages: readonly BaseMessage[]): boolean {
  return messages.some(
    (m) => isAIMessage(m) && (m.tool_calls ?? []).some((call) => call.name === WRITE_TODOS_TOOL),
  );
}

function todoReminder(text: string, kind: "list" | "completion"): HumanMessage {
  return new HumanMessage({
    content: text,
    name: HIDDEN_MESSAGE_NAMES.todoReminder,
    additional_kwargs: { [REMINDER_KIND]: kind },
  });
}

function formatTodos(todos: readonly TodoItem[]): string {
  return todos.map((todo) => `- [${todo.status}] ${todo.content}`).join("\n");
}
