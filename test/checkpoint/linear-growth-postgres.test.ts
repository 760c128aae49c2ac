import { afterAll, it } from "vitest";
import { createPostgresTestDatabase } from "../helpers/postgres.js";
import { checkLinearGrowth } from "./linear-growth.js";

const postgres = await createPostgresTestDatabase("checkpoint_growth");

afterAll(async () => {
  await postgres?.drop();
});

it.skipIf(postgres === null)(
  "a 300-turn PostgreSQL thread grows linearly and reads back what MemorySaver holds",
  async () => {
    if (postgres !== null) await checkLinearGrowth(postgres.url, "postgres");
  },
  600_000,
);
