import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { Hono } from "hono";
import type { GatewayEnv } from "./http/gateway-env.js";

export interface GatewayServer {
  /** `http://host:port`, with the real port when 0 was asked for. */
  url: string;
  host: string;
  port: number;
  /** Stop accepting connections (open streams keep running). */
  stopAccepting(): void;
  /** Close every remaining connection and wait until the server is down. */
  close(): Promise<void>;
}

/** Serve the gateway app on Node's HTTP server. */
export function startGatewayServer(
  app: Hono<GatewayEnv>,
  options: { port: number; host: string },
): Promise<GatewayServer> {
  return new Promise((resolve, reject) => {
    const server = serve(
      { fetch: app.fetch, port: options.port, hostname: options.host },
      (info: AddressInfo) => {
        server.off("error", reject);
        const host = info.family === "IPv6" ? `[${info.address}]` : info.address;
        const closed = new Promise<void>((done) => server.once("close", () => done()));
        resolve({
          url: `http://${host}:${info.port}`,
          host: info.address,
          port: info.port,
          stopAccepting: () => {
            server.close();
          },
          close: async () => {
            server.close();
            if ("closeAllConnections" in server) server.closeAllConnections();
            await closed;
          },
        });
      },
    );
    server.once("error", reject);
  });
}
