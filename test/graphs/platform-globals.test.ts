/** The SDK logger graphs get from `getLogger()`: winston-style calls land in Fawn's logger. */
import { getLogger } from "@langchain/langgraph-sdk/logging";
import { describe, expect, it } from "vitest";
import type { Logger } from "../../src/core/logger.js";
import { registerSdkLogger } from "../../src/graphs/platform-globals.js";

function recordingLogger(lines: unknown[][]): Logger {
  const logger: Logger = {
    debug: (context, message) => lines.push(["debug", context, message]),
    info: (context, message) => lines.push(["info", context, message]),
    warn: (context, message) => lines.push(["warn", context, message]),
    error: (context, message) => lines.push(["error", context, message]),
    child: () => logger,
  };
  return logger;
}

describe("registerSdkLogger", () => {
  it("makes getLogger() log message and metadata through Fawn's logger", () => {
    const lines: unknown[][] = [];
    registerSdkLogger(recordingLogger(lines));
    const logger = getLogger();
    logger.info("node ran", { node: "agent" });
    logger.warn({ message: "as an object", step: 2 });
    logger.error(new Error("failed"));
    logger.verbose("quiet");
    expect(lines).toEqual([
      ["info", { node: "agent" }, "node ran"],
      ["warn", { step: 2 }, "as an object"],
      ["error", { error: expect.any(Error) }, "failed"],
      ["debug", {}, "quiet"],
    ]);
  });
});
