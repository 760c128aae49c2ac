import { describe, expect, it } from "vitest";
import { parseRunError, runErrorOf, storedRunError } from "./run-error.js";

class CustomError extends Error {
  override name = "CustomError";
}

describe("run errors keep their class", () => {
  it("names a graph's error class, and reads it back from the stored text", () => {
    const error = new CustomError("Boo!\nsecond line");
    expect(runErrorOf(error)).toEqual({ error: "CustomError", message: "Boo!\nsecond line" });
    expect(parseRunError(storedRunError(error))).toEqual(runErrorOf(error));
    expect(parseRunError(storedRunError(new Error("plain")))).toEqual({
      error: "Error",
      message: "plain",
    });
  });

  it("a thrown non-error, an odd class name and the server's own reasons", () => {
    expect(runErrorOf("boom")).toEqual({ error: "Error", message: "boom" });
    const odd = new Error("x");
    odd.name = "not a class";
    expect(runErrorOf(odd).error).toBe("Error");
    expect(parseRunError("Rolled back by user")).toEqual({
      error: "RunError",
      message: "Rolled back by user",
    });
    expect(parseRunError("Artifact delivery incomplete: no output")).toMatchObject({
      error: "RunError",
    });
    expect(parseRunError(null)).toEqual({ error: "RunError", message: "Run failed" });
  });
});
