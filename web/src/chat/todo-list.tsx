import type { ReactNode } from "react";
import type { TodoItem } from "../api/types.js";

const MARK: Record<TodoItem["status"], string> = {
  pending: "○",
  in_progress: "◐",
  completed: "●",
};

/** The agent's plan (`values.todos`), shown above the composer. */
export function TodoList({ todos }: { todos: TodoItem[] }): ReactNode {
  const done = todos.filter((todo) => todo.status === "completed").length;
  return (
    <details className="todos" open>
      <summary>
        To-dos · {done}/{todos.length}
      </summary>
      <ul>
        {todos.map((todo, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the list is replaced whole each time
          <li key={index} className={`todo ${todo.status}`}>
            <span role="img" aria-label={todo.status}>
              {MARK[todo.status] ?? "○"}
            </span>{" "}
            {todo.content}
          </li>
        ))}
      </ul>
    </details>
  );
}
