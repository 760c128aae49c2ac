import { describe, expect, it } from "vitest";
import { eventFrame, HEARTBEAT_FRAME, runLocationHeaders, streamEventFrame } from "./sse-frame.js";

describe("SSE frames", () => {
  it("writes event, one data line of JSON, then id, then a blank line", () => {
    expect(eventFrame("values", { a: "x\ny" }, "1-0")).toBe(
      'event: values\ndata: {"a":"x\\ny"}\nid: 1-0\n\n',
    );
  });

  it("writes null data and no id line for end", () => {
    expect(eventFrame("end", null)).toBe("event: end\ndata: null\n\n");
    expect(eventFrame("end", undefined)).toBe("event: end\ndata: null\n\n");
  });

  it("keeps names and ids on one line", () => {
    expect(eventFrame("a\nb", 1, "x\r\ny")).toBe("event: a b\ndata: 1\nid: x  y\n\n");
  });

  it("heartbeats are comments", () => {
    expect(HEARTBEAT_FRAME.startsWith(":")).toBe(true);
  });

  it("locations are relative to the API prefix", () => {
    expect(runLocationHeaders("t1", "r1")).toEqual({
      "Content-Location": "/threads/t1/runs/r1",
      Location: "/threads/t1/runs/r1/stream",
    });
  });

  it("serializes a bridge event once, however many subscribers frame it", () => {
    let serialized = 0;
    const data = {
      toJSON() {
        serialized += 1;
        return { token: "hi" };
      },
    };
    const event = { id: "5-3", event: "messages", data };
    const first = streamEventFrame(event);
    expect(streamEventFrame(event)).toBe(first);
    expect(first).toBe('event: messages\ndata: {"token":"hi"}\nid: 5-3\n\n');
    expect(serialized).toBe(1);
  });
});
