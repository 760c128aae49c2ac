import { pluginToolName } from "../../agent/tools/plugin-tools.js";
import type { LoadedExtensions } from "../../extensions/host/index.js";

/** `GET /api/extensions`: what is loaded (no settings: they may hold secrets) and what failed. */
export function extensionsListing(extensions: LoadedExtensions) {
  return {
    plugins: extensions.plugins.map((plugin) => ({
      namespace: plugin.namespace,
      name: plugin.label,
      version: plugin.version,
      api_version: plugin.apiVersion,
      title: plugin.title,
      description: plugin.description,
      tools: plugin.contributions.tools.map((tool) => ({
        name: tool.name,
        exported_name: pluginToolName(plugin.namespace, tool.name),
        description: tool.description,
      })),
      actions: plugin.contributions.actions.map((action) => action.name),
      routes: plugin.contributions.routes.map((route) => ({
        method: route.method,
        path: `/api/extensions/${plugin.namespace}${route.path}`,
      })),
      services: plugin.contributions.services.map((service) => service.name),
    })),
    entries: extensions.entries.map((entry) => ({
      name: entry.label,
      status: entry.status,
      ...(entry.status === "loaded" ? { namespace: entry.plugin.namespace } : {}),
      ...(entry.status === "failed" ? { message: entry.diagnostic.message } : {}),
    })),
    diagnostics: extensions.diagnostics.list(),
  };
}
