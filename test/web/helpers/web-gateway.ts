import { type ServedGateway, startServedGateway } from "../../e2e/helpers/served-gateway.js";

export type WebGateway = ServedGateway;

/**
 * What `fawn serve` builds (config → createFawn → served lead agent → gateway) on an ephemeral
 * 127.0.0.1 port, serving the web build in `webRoot` at `/`.
 */
export function startWebGateway(options: {
  webRoot: string;
  config?: (home: string) => Record<string, unknown>;
}): Promise<WebGateway> {
  return startServedGateway(options);
}
