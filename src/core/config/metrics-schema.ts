import { z } from "zod";

/**
 * `metrics:` — the Prometheus scrape route `GET /metrics`. It carries no user content, but it
 * describes the server's load and models, so it belongs behind the operator's network edge.
 */
export const metricsConfigSchema = z.strictObject({
  /** Serve `GET /metrics` (default true); false: the route answers 404. */
  enabled: z.boolean().default(true),
});

export type MetricsSettings = z.output<typeof metricsConfigSchema>;
