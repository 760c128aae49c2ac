/**
 * `@langchain/langgraph-checkpoint-validation` is written against Vitest's globals (its own CLI
 * starts Vitest with `globals: true`); our config keeps globals off, so a validation test file
 * installs the few it uses before calling `validate()`. The suite looks them up when it defines
 * its tests, i.e. during that call, so installing them first is enough.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";

export function installVitestGlobals(): void {
  Object.assign(globalThis, { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it });
}
