import type { SandboxConfig } from "../core/config/schema.js";
import { probeBwrap } from "./bwrap/bwrap-probe.js";
import { probeDocker } from "./container/docker-cli.js";
import type { SandboxProviderKind } from "./sandbox-provider.js";

export interface SandboxProviderStatus {
  kind: SandboxProviderKind;
  available: boolean;
  /** Commands are confined (no host filesystem, no network). */
  isolated: boolean;
  detail: string;
}

export interface SandboxDoctorReport {
  requested: SandboxConfig["use"];
  /** The provider `fawn serve` would use with this config; null when the requested one cannot work. */
  active: SandboxProviderKind | null;
  providers: SandboxProviderStatus[];
  /** One line for `fawn doctor`. */
  summary: string;
  /** How to get isolation, when the active provider has none. */
  hint?: string;
}

/** Which sandbox providers work on this host and which one is active (for `fawn doctor`). */
export async function describeSandboxProviders(
  config: Pick<SandboxConfig, "use" | "allow_host_bash">,
  options: { bwrapPath?: string; dockerPath?: string } = {},
): Promise<SandboxDoctorReport> {
  const [bwrap, docker] = await Promise.all([
    probeBwrap(options.bwrapPath),
    probeDocker(options.dockerPath),
  ]);
  const providers: SandboxProviderStatus[] = [
    {
      kind: "local",
      available: true,
      isolated: false,
      detail: config.allow_host_bash
        ? "host bash ON: commands run unconfined on this machine (sandbox.allow_host_bash: true)"
        : "file tools only; host bash off (set sandbox.allow_host_bash: true on a trusted machine)",
    },
    { kind: "bwrap", available: bwrap.available, isolated: true, detail: bwrap.detail },
    { kind: "container", available: docker.available, isolated: true, detail: docker.detail },
  ];
  const statusOf = (kind: SandboxProviderKind): SandboxProviderStatus | undefined =>
    providers.find((provider) => provider.kind === kind);
  const active: SandboxProviderKind | null =
    config.use === "auto"
      ? bwrap.available
        ? "bwrap"
        : "local"
      : statusOf(config.use)?.available
        ? config.use
        : null;
  const summary =
    active === null
      ? `sandbox.use: ${config.use}, but it cannot work here: ${statusOf(config.use === "auto" ? "bwrap" : config.use)?.detail}`
      : `sandbox: ${active}${config.use === "auto" ? " (auto)" : ""} — ${statusOf(active)?.detail}`;
  const hint =
    active === "local" || active === null
      ? bwrap.available
        ? "For isolated sandboxes set sandbox.use: bwrap (or auto)."
        : "For isolated sandboxes install bubblewrap (apt-get install bubblewrap) and use sandbox.use: auto or bwrap."
      : undefined;
  return { requested: config.use, active, providers, summary, hint };
}
