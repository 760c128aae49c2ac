import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { it } from "vitest";
import { checkLinearGrowth } from "./linear-growth.js";

it("a 300-turn SQLite thread grows linearly and reads back what MemorySaver holds", async () => {
  const dir = await mkdtemp(join(tmpdir(), "fawn-growth-"));
  try {
    await checkLinearGrowth(`sqlite:${join(dir, "growth.sqlite")}`, "sqlite");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 600_000);
