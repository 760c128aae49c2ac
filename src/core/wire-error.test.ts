import { describe, expect, it } from "vitest";
import {
  AgentRunError,
  CancelledError,
  FawnError,
  isCancelledError,
  isFawnError,
  isOwnershipLostError,
  OwnershipLostError,
  PathEscapeError,
  TooManyRequestsError,
  ValidationError,
} from "./errors.js";
import { errorFromWire, errorToWire } from "./wire-error.js";

/** What an error looks like after a trip through a MessagePort (structured clone). */
function acrossPort(error: unknown): Error {
  return errorFromWire(structuredClone(errorToWire(error)));
}

describe("errors across a port", () => {
  it("revives OwnershipLostError as itself", () => {
    const revived = acrossPort(new OwnershipLostError("Refused to put a checkpoint for run r."));
    expect(isOwnershipLostError(revived)).toBe(true);
    expect(revived).toBeInstanceOf(OwnershipLostError);
    expect(revived.message).toBe("Refused to put a checkpoint for run r.");
    expect(revived.name).toBe("OwnershipLostError");
  });

  it("revives CancelledError with its reason", () => {
    const revived = acrossPort(new CancelledError("user pressed stop"));
    expect(isCancelledError(revived)).toBe(true);
    expect(revived).toBeInstanceOf(CancelledError);
    expect(revived.message).toBe("user pressed stop");
  });

  it("keeps code, status and details of the classes that carry them", () => {
    const limited = acrossPort(new TooManyRequestsError("Slow down.", 7));
    expect(limited).toBeInstanceOf(TooManyRequestsError);
    expect(isFawnError(limited) && limited.details).toEqual({ retry_after_seconds: 7 });
    const agent = acrossPort(new AgentRunError(404, "No such thread."));
    expect(agent).toBeInstanceOf(AgentRunError);
    expect(isFawnError(agent) && [agent.code, agent.status]).toEqual(["not_found", 404]);
    expect(acrossPort(new ValidationError("bad"))).toBeInstanceOf(ValidationError);
  });

  it("revives a class it cannot rebuild as a FawnError of the same code, status and name", () => {
    const original = new PathEscapeError("../etc");
    const revived = acrossPort(original);
    expect(revived).toBeInstanceOf(FawnError);
    expect(isFawnError(revived) && [revived.code, revived.status]).toEqual(["path_escape", 400]);
    expect([revived.name, revived.message]).toEqual([original.name, original.message]);
  });

  it("revives anything else as an Error with the same name and message", () => {
    const revived = acrossPort(new TypeError("x is not a function"));
    expect(isFawnError(revived)).toBe(false);
    expect([revived.name, revived.message]).toEqual(["TypeError", "x is not a function"]);
    expect(acrossPort("a thrown string").message).toBe("a thrown string");
  });

  it("drops details JSON cannot write rather than failing to cross", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const wire = errorToWire(new FawnError("internal", "boom", { details: cyclic }));
    expect(wire.details).toBeUndefined();
    expect(() => structuredClone(wire)).not.toThrow();
  });
});
