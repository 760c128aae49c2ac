/**
 * One process of the two-process cron test: a Fawn runtime over the given PostgreSQL database,
 * the gateway's run admission, and a cron scheduler whose time is what the parent says. Driven
 * over IPC:
 * - `{type: "tick", id, now}` → ticks at `now`, answers `{type: "ticked", id, outcomes}`;
 * - `{type: "park", step}` → at the next firing's `step` it reports `{type: "parked", ...}` and
 *   stops dead there (waits forever, to be SIGKILLed);
 * - `{type: "close"}` → closes the runtime and exits.
 *
 * Usage: node --import tsx cron-process.ts <database-url> <owner> <home>
 */
import { createFawn } from "../../src/app/create-fawn.js";
import { gatewayDepsOf } from "../../src/app/fawn-gateway.js";
import { servedAgent } from "../../src/cli/served-agent.js";
import { parseConfig } from "../../src/core/config/load-config.js";
import { createLogger } from "../../src/core/logger.js";
import { createGatewayServices } from "../../src/gateway/app.js";
import { CronScheduler } from "../../src/gateway/crons/cron-scheduler.js";
import type { CronFiringStep } from "../../src/ports/cron-store.js";

const LEASE_SECONDS = 30;

type Message =
  | { type: "tick"; id: number; now: string }
  | { type: "park"; step: CronFiringStep }
  | { type: "close" };

const [url, owner, home] = process.argv.slice(2);
if (!url || !owner || !home) throw new Error("usage: cron-process <url> <owner> <home>");
const send = (message: unknown): void => {
  process.send?.(message);
};

const { config } = parseConfig(
  { database: { url }, crons: { poll_interval_seconds: 0 } },
  { env: { FAWN_HOME: home }, cwd: home },
);
const logger = createLogger({ level: process.env.FAWN_TEST_LOG_LEVEL ?? "silent" });
const agent = servedAgent(config, logger);
const fawn = await createFawn({ config, logger, buildAgent: agent.build });
const services = createGatewayServices(gatewayDepsOf(fawn), { graphs: agent.graphs });
let parkAt: CronFiringStep | null = null;

const scheduler = new CronScheduler({
  store: fawn.crons.store,
  runs: services.runs,
  owner,
  leaseSeconds: LEASE_SECONDS,
  maxFiringsPerTick: 100,
  pollIntervalMs: 0,
  logger,
  afterStep: (step, claim) => {
    if (step !== parkAt) return;
    send({ type: "parked", step, cronId: claim.cron.cron_id, tick: claim.tick });
    // A parked process holds a timer, so its event loop never empties before the SIGKILL.
    setInterval(() => undefined, 60_000);
    return new Promise<never>(() => undefined);
  },
});

process.on("message", (message: Message) => {
  if (message.type === "park") parkAt = message.step;
  if (message.type === "tick") {
    scheduler.tick(new Date(message.now)).then(
      (outcomes) => send({ type: "ticked", id: message.id, outcomes }),
      (error: unknown) => send({ type: "ticked", id: message.id, error: String(error) }),
    );
  }
  if (message.type === "close") {
    void fawn.close().finally(() => process.exit(0));
  }
});
send({ type: "ready" });
