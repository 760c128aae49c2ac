/** The artifacts panel's view of `write_file` calls: partial arguments, answered and failed calls. */
import { describe, expect, it } from "vitest";
import { fileWrites, isServedPath } from "../../web/src/artifacts/live-writes.js";
import type { ChatMessage } from "../../web/src/chat/message-groups.js";

function ai(calls: { id: string; name: string; args: Record<string, unknown> }[]): ChatMessage {
  return { type: "ai", content: "", tool_calls: calls };
}

describe("fileWrites", () => {
  it("lists write_file calls with their text so far, done once the tool answered", () => {
    const messages: ChatMessage[] = [
      ai([
        {
          id: "a",
          name: "write_file",
          args: { path: "/mnt/user-data/outputs/a.md", content: "# A" },
        },
        { id: "r", name: "read_file", args: { path: "/mnt/user-data/outputs/a.md" } },
      ]),
      { type: "tool", content: "OK", tool_call_id: "a" },
      ai([
        {
          id: "b",
          name: "write_file",
          args: { path: "/mnt/user-data/outputs/b.txt", content: "par" },
        },
      ]),
    ];
    expect(fileWrites(messages)).toEqual([
      {
        toolCallId: "a",
        path: "/mnt/user-data/outputs/a.md",
        content: "# A",
        done: true,
        failed: false,
      },
      {
        toolCallId: "b",
        path: "/mnt/user-data/outputs/b.txt",
        content: "par",
        done: false,
        failed: false,
      },
    ]);
  });

  it("leaves out a call whose path has not fully arrived, and marks a failed one", () => {
    const messages: ChatMessage[] = [
      ai([{ id: "a", name: "write_file", args: { path: "/mnt/us" } }]),
      ai([{ id: "b", name: "write_file", args: { path: "/mnt/user-data/workspace/x.py" } }]),
      { type: "tool", content: "Error", tool_call_id: "b", status: "error" },
    ];
    expect(fileWrites(messages)).toEqual([
      {
        toolCallId: "b",
        path: "/mnt/user-data/workspace/x.py",
        content: "",
        done: true,
        failed: true,
      },
    ]);
  });

  it("knows which files the artifact route serves", () => {
    expect(isServedPath("/mnt/user-data/outputs/a.md")).toBe(true);
    expect(isServedPath("/mnt/user-data/uploads/a.md")).toBe(true);
    expect(isServedPath("/mnt/user-data/workspace/a.md")).toBe(false);
  });
});
