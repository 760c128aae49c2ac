import { describe, expect, it } from "vitest";
import { ValidationError } from "../core/errors.js";
import { EVENT_CATEGORIES, MAX_EVENT_TYPE_LENGTH } from "../ports/run-event-store.js";
import {
  categoryOf,
  EVENT_CATALOG,
  MAX_MIDDLEWARE_TAG_LENGTH,
  middlewareEventType,
  validateCatalogEvent,
} from "./event-catalog.js";

const base = { thread_id: "t", run_id: "r", content: "" };

describe("event catalog", () => {
  it("is frozen: names and categories match the published catalog", () => {
    expect(EVENT_CATALOG).toEqual({
      "run.start": "trace",
      "run.end": "outputs",
      "run.error": "error",
      "run.delivery": "outputs",
      "run.terminal": "trace",
      "llm.human.input": "message",
      "llm.ai.response": "message",
      "llm.tool.result": "message",
      "llm.error": "trace",
      "context:memory": "context",
      "subagent.start": "subagent",
      "subagent.step": "subagent",
      "subagent.end": "subagent",
      workspace_changes: "workspace",
    });
  });

  it("every type fits the store columns and every category is known", () => {
    for (const [type, category] of Object.entries(EVENT_CATALOG)) {
      expect(type.length).toBeLessThanOrEqual(MAX_EVENT_TYPE_LENGTH);
      expect(EVENT_CATEGORIES).toContain(category);
    }
  });

  it("middleware events carry a 1-21 character tag", () => {
    expect(middlewareEventType("guardrail")).toBe("middleware:guardrail");
    expect(categoryOf("middleware:guardrail")).toBe("middleware");
    expect(MAX_MIDDLEWARE_TAG_LENGTH).toBe(21);
    expect(middlewareEventType("x".repeat(21))).toHaveLength(32);
    expect(() => middlewareEventType("x".repeat(22))).toThrow(ValidationError);
    expect(() => middlewareEventType("")).toThrow(ValidationError);
  });

  it("rejects unknown types, wrong categories and oversized names before any write", () => {
    expect(() =>
      validateCatalogEvent({ ...base, event_type: "run.start", category: "trace" }),
    ).not.toThrow();
    expect(() =>
      validateCatalogEvent({ ...base, event_type: "run.start", category: "outputs" }),
    ).toThrow(ValidationError);
    expect(() =>
      validateCatalogEvent({ ...base, event_type: "no.such.event", category: "trace" }),
    ).toThrow(ValidationError);
    expect(() =>
      validateCatalogEvent({ ...base, event_type: "x".repeat(33), category: "trace" }),
    ).toThrow(ValidationError);
  });

  it("the legacy ai_message alias is never produced", () => {
    expect(categoryOf("ai_message")).toBeNull();
  });
});
