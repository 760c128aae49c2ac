/**
 * Child process: an OpenAI-compatible chat-completions server for agent-load. A run's first call
 * answers with a `bash` tool call, its second with `write_file` + `present_files`, its third
 * streams ANSWER_TOKENS tokens at TOKENS_PER_SECOND. Each token's text is ` t<emit time>` (ms
 * since the epoch, µs precision, `performance.timeOrigin + performance.now()`), so the client
 * reading the run's SSE stream can tell how long the token took to reach it.
 *
 * One timer paces every open stream (a tick writes the next token of each), so 1,000 streams
 * cost one timer, not 40,000 a second.
 *
 * Usage (by the bench, bundled): node paced-mock.mjs <tokens-per-second> <answer-tokens>
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { serveParent } from "../lib/child-side.js";

const [rateText, tokensText] = process.argv.slice(2);
const tokensPerSecond = Number(rateText);
const answerTokens = Number(tokensText);
if (!(tokensPerSecond > 0) || !Number.isInteger(answerTokens) || answerTokens < 1) {
  throw new Error("usage: paced-mock <tokens-per-second> <answer-tokens>");
}

interface OpenStream {
  res: ServerResponse;
  id: string;
  model: string;
  sent: number;
}

const streams = new Set<OpenStream>();
let emitted = 0;

function frame(stream: { id: string; model: string }, delta: object, finish: string | null = null) {
  const body = {
    id: stream.id,
    object: "chat.completion.chunk",
    created: 0,
    model: stream.model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

setInterval(() => {
  for (const stream of streams) {
    const stamp = (performance.timeOrigin + performance.now()).toFixed(3);
    stream.res.write(frame(stream, { content: ` t${stamp}` }));
    emitted += 1;
    stream.sent += 1;
    if (stream.sent >= answerTokens) {
      streams.delete(stream);
      stream.res.end(`${frame(stream, {}, "stop")}data: [DONE]\n\n`);
    }
  }
}, 1000 / tokensPerSecond);

interface ChatBody {
  model?: string;
  messages?: Array<{ role?: string }>;
}

function toolCallFrames(stream: { id: string; model: string }, calls: Array<[string, object]>) {
  let text = frame(stream, { role: "assistant", content: "" });
  calls.forEach(([name, args], index) => {
    text += frame(stream, {
      tool_calls: [
        {
          index,
          id: `call_${stream.id}_${index}`,
          type: "function",
          function: { name, arguments: JSON.stringify(args) },
        },
      ],
    });
  });
  return `${text}${frame(stream, {}, "tool_calls")}data: [DONE]\n\n`;
}

async function readBody(req: IncomingMessage): Promise<ChatBody> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8")) as ChatBody;
}

let nextId = 0;
const server = createServer((req, res) => {
  readBody(req).then(
    (body) => {
      const toolResults = (body.messages ?? []).filter((m) => m.role === "tool").length;
      const stream = { id: `cmpl${nextId++}`, model: body.model ?? "gpt-mock" };
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      if (toolResults === 0) {
        res.end(toolCallFrames(stream, [["bash", { command: "echo agent-load" }]]));
      } else if (toolResults === 1) {
        const path = "/mnt/user-data/outputs/report.md";
        res.end(
          toolCallFrames(stream, [
            ["write_file", { path, content: "# Report\n\nfrom the agent-load mock\n" }],
            ["present_files", { filepaths: [path] }],
          ]),
        );
      } else {
        res.write(frame(stream, { role: "assistant", content: "" }));
        const open: OpenStream = { res, ...stream, sent: 0 };
        streams.add(open);
        res.on("close", () => streams.delete(open));
      }
    },
    () => {
      res.writeHead(400).end();
    },
  );
});
server.keepAliveTimeout = 60_000;
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const address = server.address();
if (address === null || typeof address === "string") throw new Error("no TCP address");
const { port } = address;

serveParent(`http://127.0.0.1:${port}/v1`, {
  emitted: () => emitted,
});
process.once("SIGTERM", () => process.exit(0));
