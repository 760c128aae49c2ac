import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { afterEach, describe, expect, it } from "vitest";
import { createTestAgent, type TestAgent } from "./harness.js";

/** A 1×1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

const script = [
  {
    turns: [
      {
        tool_calls: [
          { name: "view_image", args: { image_path: "/mnt/user-data/uploads/chart.png" } },
        ],
      },
      {
        tool_calls: [
          { name: "view_image", args: { image_path: "/mnt/user-data/uploads/fake.png" } },
        ],
      },
      { content: "The chart shows one pixel." },
    ],
  },
];

let agent: TestAgent | undefined;

afterEach(async () => {
  await agent?.dispose();
  agent = undefined;
});

const imageContexts = (messages: readonly BaseMessage[]) =>
  messages.filter(
    (m): m is HumanMessage =>
      HumanMessage.isInstance(m) && (m.id ?? "").startsWith("view-image-context:"),
  );

describe("ViewImageMiddleware", () => {
  it("a viewed image reaches the next request as image data, never the thread", async () => {
    agent = await createTestAgent({ script, supportsVision: true });
    const uploads = agent.paths.threadPaths({ userId: "default", threadId: "t-img" }).uploadsDir;
    await mkdir(uploads, { recursive: true });
    await writeFile(join(uploads, "chart.png"), PNG);
    await writeFile(join(uploads, "fake.png"), "not a png");

    const state = await agent.run("t-img", "what is in the chart?");

    expect(state.viewed_images["/mnt/user-data/uploads/chart.png"]).toMatchObject({
      mime_type: "image/png",
      size: PNG.length,
    });
    const results = state.messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));
    expect(results.map((m) => m.content)).toEqual([
      "Successfully read image",
      "Error: File content is not a valid image/png image: /mnt/user-data/uploads/fake.png",
    ]);
    const [first, second, third] = agent.requests.lead;
    expect(imageContexts(first?.messages ?? [])).toHaveLength(0);
    const attached = imageContexts(second?.messages ?? [])[0];
    expect(JSON.stringify(attached?.content)).toContain(
      `data:image/png;base64,${PNG.toString("base64")}`,
    );
    expect(imageContexts(third?.messages ?? [])).toHaveLength(0);
    expect(imageContexts(state.messages)).toHaveLength(0);
    expect(agent.evidence.actions("view_image")).toEqual(["attached_images"]);
  });

  it("models without vision do not get view_image", async () => {
    agent = await createTestAgent({ script: [{ turns: [{ content: "ok" }] }] });
    await agent.run("t-no-vision", "hi");
    expect(agent.requests.lead[0]?.tools).not.toContain("view_image");
  });
});
