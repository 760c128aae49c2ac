/**
 * A set of real `fawn serve` processes on loopback sharing one PostgreSQL database and one Redis,
 * which the chaos script kills (and restarts), pauses and resumes.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { stringify } from "yaml";
import { type ServeProcess, startFawnServe } from "../../test/helpers/fawn-serve-process.js";

export interface ClusterSettings {
  /** Scratch folder: one FAWN_HOME per process under it. */
  dir: string;
  databaseUrl: string;
  redisUrl: string;
  /** How many words each scripted answer streams, one every `delayMs`. */
  words: number;
  delayMs: number;
  leaseSeconds: number;
  /** The CLI entry node runs (`bundleEntry("src/cli/main.ts")`); default `bin/fawn.js`. */
  cli?: string;
}

interface Node {
  index: number;
  server: ServeProcess | null;
  paused: boolean;
  /** Restarts so far: each gets a fresh home folder name (the old process may linger). */
  generation: number;
}

/** Writes config.yaml (scripted model, short lease) and its script into `home`. */
async function writeNodeConfig(home: string, settings: ClusterSettings): Promise<string> {
  await mkdir(home, { recursive: true });
  const script = join(home, "script.yaml");
  await writeFile(
    script,
    stringify([
      { turns: [{ content: "chaos ".repeat(settings.words) }], stream_delay_ms: settings.delayMs },
    ]),
  );
  const config = join(home, "config.yaml");
  await writeFile(
    config,
    stringify({
      models: [{ name: "scripted", use: "scripted", model: "s", script }],
      sandbox: { use: "local" },
      runtime: {
        lease_seconds: settings.leaseSeconds,
        grace_seconds: 0,
        recovery_interval_seconds: 1,
        shutdown_timeout_seconds: 2,
      },
    }),
  );
  return config;
}

export class ChaosCluster {
  private readonly nodes: Node[] = [];

  constructor(private readonly settings: ClusterSettings) {}

  async start(count: number): Promise<void> {
    for (let index = 0; index < count; index += 1) {
      this.nodes.push({ index, server: null, paused: false, generation: 0 });
    }
    await Promise.all(this.nodes.map((node) => this.boot(node)));
  }

  private async boot(node: Node): Promise<void> {
    const home = join(this.settings.dir, `node-${node.index}-${node.generation}`);
    node.generation += 1;
    node.server = await startFawnServe(
      home,
      {
        FAWN_CONFIG: await writeNodeConfig(home, this.settings),
        FAWN_DATABASE_URL: this.settings.databaseUrl,
        FAWN_REDIS_URL: this.settings.redisUrl,
        FAWN_LOG_LEVEL: "silent",
      },
      this.settings.cli ? { cli: this.settings.cli } : {},
    );
    node.paused = false;
  }

  /** Servers that run and are not paused: where clients send requests. */
  serving(): ServeProcess[] {
    return this.nodes.flatMap((node) =>
      node.server && !node.paused && node.server.child.exitCode === null ? [node.server] : [],
    );
  }

  /** Node indexes a fault may hit now: never the last serving one. */
  disruptable(): number[] {
    const up = this.nodes.filter((n) => n.server && !n.paused && n.server.child.exitCode === null);
    return up.length > 1 ? up.map((n) => n.index) : [];
  }

  /** SIGKILL, then start it again (a fresh process on a new port). */
  async killAndRestart(index: number): Promise<void> {
    const node = this.nodeAt(index);
    const server = node.server;
    if (server) {
      node.server = null;
      server.child.kill("SIGKILL");
      await server.exited;
    }
    await this.boot(node);
  }

  /** SIGSTOP for `ms`, then SIGCONT: past the lease, a peer takes its runs over meanwhile. */
  async pause(index: number, ms: number): Promise<void> {
    const node = this.nodeAt(index);
    const server = node.server;
    if (!server) return;
    node.paused = true;
    server.child.kill("SIGSTOP");
    await sleep(ms);
    server.child.kill("SIGCONT");
    node.paused = false;
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.nodes.map(async (node) => {
        const server = node.server;
        node.server = null;
        if (!server || server.child.exitCode !== null) return;
        server.child.kill("SIGCONT");
        server.child.kill("SIGKILL");
        await server.exited;
      }),
    );
  }

  private nodeAt(index: number): Node {
    const node = this.nodes[index];
    if (!node) throw new Error(`no chaos node ${index}`);
    return node;
  }
}
