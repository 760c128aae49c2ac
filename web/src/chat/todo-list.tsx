import type { ReactNode } from "react";
import type { TodoItem } from "../api/types.js";

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
  const done = todos.filter((todo) => todo.status === "completed").length;
  return (
    <details className="todos" open>
      <summary>
        To-dos · {done}/{todos.length}
      </summary>
      <ul>
        {todos.map((todo, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the list is replaced whole each time
          <li key={index} className={`todo ${todo.status}${stalled(todo, running) ? " idle" : ""}`}>
            <span
              role="img"
              aria-label={stalled(todo, running) ? "not finished" : todo.status.replace("_", " ")}
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
