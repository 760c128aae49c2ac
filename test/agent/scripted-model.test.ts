/**
 * The scripted chat model as LangChain sees it: rule matching and turn counting from the
 * conversation, streaming through callbacks, tool calls and usage, hang-until-abort, middleware
 * calls that consume no turn, and script files read without blocking IO.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { loadScript } from "../../src/agent/scripted/load-script.js";
import { parseScript } from "../../src/agent/scripted/script-schema.js";
import { ScriptedChatModel } from "../../src/agent/scripted/scripted-chat-model.js";
import { isCancelledError } from "../../src/core/errors.js";
import { withBlockingIoGate } from "../helpers/blocking-io-gate.js";
import { within } from "../helpers/latch.js";

const script = parseScript(
  [
    {
      match: "weather",
      turns: [
        {
          reasoning: "I need the forecast.",
          content: "Let me look that up for you.",
          tool_calls: [{ name: "get_weather", args: { city: "Paris" } }],
        },
        { content: "It will be sunny in Paris." },
      ],
    },
    { match: "^hang", hang: true },
    { match: "^slow", stream_delay_ms: 50, turns: [{ content: "one two three four five six" }] },
    {
      match: "^write",
      stream_tool_args: true,
      turns: [
        {
          tool_calls: [
            {
              name: "write_file",
              args: { path: "/mnt/user-data/outputs/a.txt", content: "x y z" },
            },
          ],
        },
      ],
    },
    { turns: [{ content: "Default answer." }] },
  ],
  "inline",
);

function model(): ScriptedChatModel {
  return new ScriptedChatModel({ script, modelName: "test-script" });
}

/** Records every streamed token the way LangGraph's `messages` stream mode receives them. */
class TokenRecorder extends BaseCallbackHandler {
  name = "token_recorder";
  tokens: string[] = [];
  override handleLLMNewToken(token: string): void {
    this.tokens.push(token);
  }
}

describe("answers", () => {
  it("streams tool-call arguments in pieces with stream_tool_args, the same call once joined", async () => {
    const pieces: string[] = [];
    let whole: Awaited<ReturnType<ScriptedChatModel["invoke"]>> | undefined;
    for await (const chunk of await model().stream([new HumanMessage("write it")])) {
      for (const call of chunk.tool_call_chunks ?? []) pieces.push(call.args ?? "");
      whole = whole ? whole.concat(chunk) : chunk;
    }
    expect(pieces.filter((piece) => piece !== "").length).toBeGreaterThan(2);
    expect(whole?.tool_calls).toEqual([
      {
        type: "tool_call",
        name: "write_file",
        args: { path: "/mnt/user-data/outputs/a.txt", content: "x y z" },
        id: expect.any(String),
      },
    ]);
  });

  it("answers turn 0 with reasoning, content, a tool call and usage", async () => {
    const reply = await model().invoke([new HumanMessage("What's the weather?")]);
    expect(reply.content).toBe("Let me look that up for you.");
    expect(reply.additional_kwargs.reasoning_content).toBe("I need the forecast.");
    expect(reply.tool_calls).toEqual([
      { type: "tool_call", name: "get_weather", args: { city: "Paris" }, id: expect.any(String) },
    ]);
    expect(reply.usage_metadata).toMatchObject({
      input_tokens: expect.any(Number),
      output_tokens: expect.any(Number),
    });
    expect(reply.response_metadata).toMatchObject({
      model_name: "test-script",
      finish_reason: "tool_calls",
    });
  });

  it("the next call after the tool result answers turn 1", async () => {
    const first = await model().invoke([new HumanMessage("weather?")]);
    const callId = first.tool_calls?.[0]?.id ?? "";
    const second = await model().invoke([
      new HumanMessage("weather?"),
      new AIMessage({ content: first.content, tool_calls: first.tool_calls }),
      new ToolMessage({ content: "sunny", tool_call_id: callId }),
    ]);
    expect(second.content).toBe("It will be sunny in Paris.");
    expect(second.tool_calls).toEqual([]);
  });

  it("concurrent conversations are independent (the turn comes from the messages)", async () => {
    const shared = model();
    const conversations: BaseMessage[][] = [
      [new HumanMessage("weather?")],
      [
        new HumanMessage("weather?"),
        new AIMessage("x"),
        new ToolMessage({ content: "r", tool_call_id: "c" }),
      ],
      [new HumanMessage("hello")],
    ];
    const replies = await Promise.all(conversations.map((c) => shared.invoke(c)));
    expect(replies.map((r) => r.content)).toEqual([
      "Let me look that up for you.",
      "It will be sunny in Paris.",
      "Default answer.",
    ]);
  });

  it("bindTools works and does not change the scripted answer", async () => {
    const getWeather = tool(async () => "sunny", {
      name: "get_weather",
      description: "forecast",
      schema: z.object({ city: z.string() }),
    });
    const bound = model().bindTools([getWeather]);
    const reply = await bound.invoke([new HumanMessage("weather")]);
    expect(reply.tool_calls?.[0]?.name).toBe("get_weather");
  });
});

describe("streaming", () => {
  it("content arrives in several chunks, each also reported as a token", async () => {
    const recorder = new TokenRecorder();
    const chunks: string[] = [];
    for await (const chunk of await model().stream([new HumanMessage("hello there")], {
      callbacks: [recorder],
    })) {
      if (typeof chunk.content === "string" && chunk.content) chunks.push(chunk.content);
    }
    expect(chunks.join("")).toBe("Default answer.");
    expect(chunks.length).toBeGreaterThan(1);
    expect(recorder.tokens.join("")).toBe("Default answer.");
  });

  it("stream_delay_ms paces chunks and an abort stops the stream", async () => {
    const controller = new AbortController();
    const seen: string[] = [];
    const run = (async () => {
      for await (const chunk of await model().stream([new HumanMessage("slow please")], {
        signal: controller.signal,
      })) {
        seen.push(String(chunk.content));
        if (seen.length === 2) controller.abort(new Error("stop now"));
      }
    })();
    await expect(within(run, 5000, "abort did not stop the stream")).rejects.toThrow();
    expect(seen.length).toBeLessThan(6);
  });
});

describe("hang", () => {
  it("never answers until the call's signal aborts, then rejects", async () => {
    const controller = new AbortController();
    let settled = false;
    const call = model()
      .invoke([new HumanMessage("hang forever")], { signal: controller.signal })
      .finally(() => {
        settled = true;
      });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toBe(false);
    controller.abort(new Error("run cancelled"));
    const error = await within(
      call.catch((e: unknown) => e),
      5000,
      "hang did not end on abort",
    );
    expect(error).toBeInstanceOf(Error);
  });

  it("the rejection is a cancellation when streaming", async () => {
    const controller = new AbortController();
    const stream = (async () => {
      for await (const _chunk of await model().stream([new HumanMessage("hang")], {
        signal: controller.signal,
      })) {
        // never reached
      }
    })();
    controller.abort(new Error("cancel"));
    const error = await within(
      stream.catch((e: unknown) => e),
      5000,
      "hang did not end",
    );
    expect(
      error instanceof Error && (isCancelledError(error) || /abort|cancel/i.test(error.message)),
    ).toBe(true);
  });
});

describe("middleware calls", () => {
  const history = [new HumanMessage("weather in Paris please")];

  it("a call tagged middleware:* gets a short answer and consumes no turn", async () => {
    const shared = model();
    const title = await shared.invoke(history, { tags: ["middleware:title"] });
    expect(title.content).toBe("weather in Paris please");
    expect(title.tool_calls).toEqual([]);
    // The lead agent's next call is still turn 0 (the middleware answer is not in the history).
    const lead = await shared.invoke(history, { tags: ["lead_agent"] });
    expect(lead.content).toBe("Let me look that up for you.");
  });

  it("the caller option and run metadata identify middleware calls too", async () => {
    expect((await model().invoke(history, { caller: "middleware:summarization" })).content).toBe(
      "Summary of the earlier conversation.",
    );
    expect(
      (await model().invoke(history, { metadata: { caller: "middleware:memory" } })).content,
    ).toBe("OK");
  });

  it("tags on a bound model (withConfig) are seen as well", async () => {
    const titled = model().withConfig({ tags: ["middleware:title"] });
    expect((await titled.invoke(history)).content).toBe("weather in Paris please");
  });
});

describe("script files", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "fawn-script-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("YAML and JSON scripts load asynchronously (no sync IO) on first use", async () => {
    await writeFile(join(dir, "s.yaml"), "- match: hi\n  turns:\n    - content: hello from yaml\n");
    await writeFile(join(dir, "s.json"), JSON.stringify([{ turns: [{ content: "from json" }] }]));
    await withBlockingIoGate(async () => {
      const yamlModel = new ScriptedChatModel({ script: () => loadScript("s.yaml", dir) });
      expect((await yamlModel.invoke([new HumanMessage("hi")])).content).toBe("hello from yaml");
      const jsonModel = new ScriptedChatModel({ script: () => loadScript(join(dir, "s.json")) });
      expect((await jsonModel.invoke([new HumanMessage("x")])).content).toBe("from json");
    });
  });

  it("a missing or invalid file is a ConfigError naming the file", async () => {
    await expect(loadScript(join(dir, "missing.yaml"))).rejects.toThrow(
      /Cannot read scripted-model script .*missing.yaml/,
    );
    await writeFile(join(dir, "bad.yaml"), "- turns: nope\n");
    await expect(loadScript(join(dir, "bad.yaml"))).rejects.toThrow(/bad.yaml: 0.turns/);
  });
});
