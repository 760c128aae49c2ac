import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { HumanMessage } from "@langchain/core/messages";
import { afterEach, describe, expect, it } from "vitest";
import { createTestAgent, type TestAgent } from "./harness.js";

let agent: TestAgent | undefined;

afterEach(async () => {
  await agent?.dispose();
  agent = undefined;
});

const script = [{ turns: [{ content: "Read your files." }] }];

describe("ThreadDataMiddleware and UploadsMiddleware", () => {
  it("records the thread's folders and stamps the run's user message", async () => {
    agent = await createTestAgent({ script });
    const state = await agent.run("t-data", "hello", { runId: "run-abc" });
    const paths = agent.paths.threadPaths({ userId: "default", threadId: "t-data" });
    expect(state.thread_data).toEqual({
      workspace_path: paths.workspaceDir,
      uploads_path: paths.uploadsDir,
      outputs_path: paths.outputsDir,
    });
    const user = state.messages[0];
    expect(user?.name).toBe("user-input");
    expect(user?.additional_kwargs.run_id).toBe("run-abc");
    expect(String(user?.additional_kwargs.timestamp)).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
    expect(state.uploaded_files).toEqual([]);
  });

  it("lists this message's real uploads in a <current_uploads> block and ignores the rest", async () => {
    agent = await createTestAgent({ script });
    const uploads = agent.paths.threadPaths({ userId: "default", threadId: "t-up" }).uploadsDir;
    await mkdir(uploads, { recursive: true });
    await writeFile(join(uploads, "notes<1>.txt"), "x".repeat(3000));
    await writeFile(join(uploads, ".upload-abc.part"), "partial");
    const message = new HumanMessage({
      content: "Summarize my notes",
      additional_kwargs: {
        files: [
          { filename: "notes<1>.txt", size: 3000, status: "uploaded" },
          { filename: "../../etc/passwd" },
          { filename: ".upload-abc.part" },
          { filename: "missing.pdf" },
        ],
      },
    });
    const state = await agent.run("t-up", message);

    expect(state.uploaded_files).toEqual([
      {
        filename: "notes<1>.txt",
        size: 3000,
        path: "/mnt/user-data/uploads/notes<1>.txt",
        extension: "txt",
      },
    ]);
    const user = state.messages[0];
    const content = String(user?.content);
    expect(content.startsWith("<current_uploads>\n")).toBe(true);
    expect(content).toContain(
      "- notes&lt;1&gt;.txt (3 KB): /mnt/user-data/uploads/notes&lt;1&gt;.txt",
    );
    expect(content).not.toContain("passwd");
    expect(content.endsWith("</current_uploads>\n\nSummarize my notes")).toBe(true);
    expect(user?.additional_kwargs.original_user_content).toBe("Summarize my notes");
    // The model saw the block.
    expect(String(agent.requests.lead[0]?.messages.at(-1)?.content)).toContain("<current_uploads>");
    expect(agent.evidence.actions("uploads")).toEqual(["injected_uploads"]);
  });

  it("finds an upload (stored in NFC) that the message lists in its decomposed spelling", async () => {
    agent = await createTestAgent({ script });
    const uploads = agent.paths.threadPaths({ userId: "default", threadId: "t-nfd" }).uploadsDir;
    await mkdir(uploads, { recursive: true });
    await writeFile(join(uploads, "caf\u00e9.txt"), "menu");
    const message = new HumanMessage({
      content: "Read the menu",
      additional_kwargs: { files: [{ filename: "cafe\u0301.txt" }] },
    });
    const state = await agent.run("t-nfd", message);
    expect(state.uploaded_files).toEqual([
      {
        filename: "caf\u00e9.txt",
        size: 4,
        path: "/mnt/user-data/uploads/caf\u00e9.txt",
        extension: "txt",
      },
    ]);
  });

  it("a run without a thread id is refused", async () => {
    agent = await createTestAgent({ script });
    await expect(
      agent.graph.invoke(
        { messages: [new HumanMessage("hi")] },
        { configurable: { thread_id: "" } },
      ),
    ).rejects.toThrow();
  });
});
