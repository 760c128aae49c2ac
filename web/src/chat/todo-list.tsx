import type { ReactNode } from "react";
import type { TodoItem } from "../api/types.js";
import { useT } from "../i18n/locale-context.js";
import { chatMessages } from "../i18n/messages/chat.js";

const STATUS_KEYS = {
  pending: "todoPending",
  in_progress: "todoInProgress",
  completed: "todoCompleted",
} as const satisfies Record<TodoItem["status"], keyof typeof chatMessages.en>;

const MARK: Record<TodoItem["status"], string> = {
  pending: "○",
  in_progress: "◐",
  completed: "●",
};

/**
 * The agent's plan (`values.todos`), shown above the composer. With no run going, an item left
 * in progress (the run was stopped, failed or ended without closing it) reads "not finished".
 */
export function TodoList({ todos, running }: { todos: TodoItem[]; running: boolean }): ReactNode {
  const t = useT(chatMessages);
  const done = todos.filter((todo) => todo.status === "completed").length;
  return (
    <details className="todos" open>
      <summary>{t("todos", { done, total: todos.length })}</summary>
      <ul>
        {todos.map((todo, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the list is replaced whole each time
          <li key={index} className={`todo ${todo.status}${stalled(todo, running) ? " idle" : ""}`}>
            <span
              role="img"
              aria-label={
                stalled(todo, running)
                  ? t("todoStalled")
                  : t(STATUS_KEYS[todo.status] ?? "todoPending")
              }
            >
              {stalled(todo, running) ? "◌" : (MARK[todo.status] ?? "○")}
            </span>{" "}
            {todo.content}
          </li>
        ))}
      </ul>
    </details>
  );
}

function stalled(todo: TodoItem, running: boolean): boolean {
  return todo.status === "in_progress" && !running;
}
