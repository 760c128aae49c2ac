/**
 * The execution thread's side of run-savers-port.test.ts: checkpoints two steps with LangChain
 * messages, reads them back, writes a journal batch, and reports what it saw.
 */
import { type MessagePort, parentPort, workerData } from "node:worker_threads";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { SerializedRunEvent } from "../../../src/ports/serialized-run-event.js";
import { runSaversOverPort } from "../../../src/stores/port/run-savers-over-port.js";
import { putStep } from "../../checkpoint/direct-puts.js";

const { port, threadId, runId } = workerData as {
  port: MessagePort;
  threadId: string;
  runId: string;
};
const savers = runSaversOverPort(port);
const first = await putStep(savers.checkpointer, threadId, undefined, {
  messages: [new HumanMessage("hello")],
  counter: 0,
});
await putStep(savers.checkpointer, threadId, first, {
  messages: [new HumanMessage("hello"), new AIMessage("hi")],
  counter: 1,
});
const head = await savers.checkpointer.getTuple({ configurable: { thread_id: threadId } });
const messages = head?.checkpoint.channel_values.messages;
let history = 0;
for await (const _tuple of savers.checkpointer.list({ configurable: { thread_id: threadId } })) {
  history += 1;
}
await savers.events.putBatch([
  new SerializedRunEvent({
    thread_id: threadId,
    run_id: runId,
    event_type: "llm.ai.response",
    category: "message",
    content: { text: "from the worker" },
    metadata: {},
    created_at: "2026-01-02T03:04:05.678Z",
    user_id: null,
  }),
]);
savers.close();
parentPort?.postMessage({
  revivedAiMessage: Array.isArray(messages) && messages[1] instanceof AIMessage,
  history,
});
