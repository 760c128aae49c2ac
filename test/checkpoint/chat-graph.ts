/**
 * A one-node chat graph over MessagesAnnotation with deterministic message ids and fixed-size
 * contents, so two savers driven with the same turns hold identical values and every turn adds
 * the same number of bytes.
 */
import { AIMessage, type BaseMessage, HumanMessage } from "@langchain/core/messages";
import {
  END,
  MessagesAnnotation,
  START,
  StateGraph,
  type StateSnapshot,
} from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";

const PADDING = "lorem ipsum dolor sit amet ".repeat(4);

function turnOf(messages: BaseMessage[]): string {
  return String(messages.filter((m) => m.getType() === "human").length).padStart(5, "0");
}

export function buildChatGraph(checkpointer: BaseCheckpointSaver) {
  return new StateGraph(MessagesAnnotation)
    .addNode("agent", async (state) => {
      const turn = turnOf(state.messages);
      return {
        messages: [new AIMessage({ id: `ai-${turn}`, content: `answer ${turn}: ${PADDING}` })],
      };
    })
    .addEdge(START, "agent")
    .addEdge("agent", END)
    .compile({ checkpointer });
}

export type ChatGraph = ReturnType<typeof buildChatGraph>;

export function humanTurn(turn: number, label = "question"): { messages: BaseMessage[] } {
  const id = String(turn).padStart(5, "0");
  return {
    messages: [
      new HumanMessage({ id: `human-${label}-${id}`, content: `${label} ${id}: ${PADDING}` }),
    ],
  };
}

export function threadConfig(threadId: string, checkpointId?: string) {
  return {
    configurable: {
      thread_id: threadId,
      ...(checkpointId === undefined ? {} : { checkpoint_id: checkpointId }),
    },
  };
}

/**
 * A snapshot without what legitimately differs between savers (checkpoint ids, timestamps,
 * channel versions, task ids): values, next nodes, metadata, tasks, and the parent as a position
 * in the history.
 */
export function comparable(snapshot: StateSnapshot, positions: Map<string, number>) {
  const parentId = snapshot.parentConfig?.configurable?.checkpoint_id;
  return {
    values: snapshot.values,
    next: snapshot.next,
    metadata: snapshot.metadata,
    tasks: snapshot.tasks.map((task) => ({
      name: task.name,
      path: task.path,
      interrupts: task.interrupts,
      result: task.result,
      error: task.error,
    })),
    parent: typeof parentId === "string" ? (positions.get(parentId) ?? "unknown") : null,
  };
}

export async function comparableHistory(graph: ChatGraph, threadId: string) {
  const snapshots: StateSnapshot[] = [];
  for await (const snapshot of graph.getStateHistory(threadConfig(threadId))) {
    snapshots.push(snapshot);
  }
  const positions = new Map<string, number>();
  snapshots.forEach((snapshot, i) => {
    const id = snapshot.config.configurable?.checkpoint_id;
    if (typeof id === "string") positions.set(id, i);
  });
  return snapshots.map((snapshot) => comparable(snapshot, positions));
}
