/**
 * The checkpoint saver's linear-growth proof, shared by the SQLite and PostgreSQL files
 * (separate files so the two slow runs go in parallel): a 300-turn thread through a real StateGraph. The saver's
 * `onBytesWritten` hook reports the payload bytes of every committed put/putWrites (serialized
 * checkpoint header, metadata, channel values, new messages, list scripts, write values — not
 * key columns or index pages); the last 50 turns must write at most 1.5× the first 50. The same
 * turns driven through a MemorySaver must read back the same state and the same full history.
 *
 * Most of the run time is LangGraph deserializing every message of every state — for both
 * savers alike: a full history of n turns holds O(n²) messages.
 */
import { MemorySaver } from "@langchain/langgraph-checkpoint";
import { expect } from "vitest";
import { SqlCheckpointSaver } from "../../src/stores/sql/checkpoint/sql-checkpoint-saver.js";
import { openSqlDatabase } from "../../src/stores/sql/database.js";
import { buildChatGraph, comparableHistory, humanTurn, threadConfig } from "./chat-graph.js";

export const TURNS = 300;
const WINDOW = 50;

const sum = (values: number[]): number => values.reduce((total, value) => total + value, 0);

export async function checkLinearGrowth(url: string, label: string): Promise<void> {
  const database = await openSqlDatabase(url);
  try {
    let turnBytes = 0;
    const saver = new SqlCheckpointSaver(database, {
      onBytesWritten: (bytes) => {
        turnBytes += bytes;
      },
    });
    const graph = buildChatGraph(saver);
    const reference = buildChatGraph(new MemorySaver());
    const threadId = `growth-${label}`;
    const perTurn: number[] = [];
    for (let turn = 1; turn <= TURNS; turn++) {
      turnBytes = 0;
      await graph.invoke(humanTurn(turn), threadConfig(threadId));
      perTurn.push(turnBytes);
      await reference.invoke(humanTurn(turn), threadConfig(threadId));
    }
    const first = sum(perTurn.slice(0, WINDOW));
    const last = sum(perTurn.slice(-WINDOW));
    console.info(
      `[${label}] payload bytes written: first ${WINDOW} turns ${first}, last ${WINDOW} turns ` +
        `${last} (last/first ${(last / first).toFixed(3)})`,
    );
    expect(last).toBeLessThanOrEqual(first * 1.5);

    const state = await graph.getState(threadConfig(threadId));
    const expected = await reference.getState(threadConfig(threadId));
    expect(state.values.messages).toHaveLength(TURNS * 2);
    expect(state.values).toEqual(expected.values);
    expect(state.next).toEqual(expected.next);
    expect(state.metadata).toEqual(expected.metadata);

    const history = await comparableHistory(graph, threadId);
    const expectedHistory = await comparableHistory(reference, threadId);
    expect(history.length).toBeGreaterThanOrEqual(TURNS * 3);
    expect(history).toHaveLength(expectedHistory.length);
    expect(history).toEqual(expectedHistory);
  } finally {
    await database.close();
  }
}
