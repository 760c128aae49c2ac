import { dirname } from "node:path";
import { Command } from "commander";
import { loadConfig } from "../../core/config/load-config.js";
import { configSection } from "./config-section.js";
import { renderDoctorReport } from "./doctor-report.js";
import { mcpSection, pluginSection } from "./extension-sections.js";
import { modelSection } from "./model-section.js";
import { platformSection } from "./platform-section.js";
import { skillSection } from "./skill-section.js";
import { toolSection } from "./tool-section.js";
import { tracingSection } from "./tracing-section.js";

/**
 * `fawn doctor`: the config's verdicts, then every model, tool, MCP server, plugin and skill
 * source with its status and a fix. Exits 1 only for real errors (`FAIL` lines): warnings are
 * things that work partly (an unported tool, a model without a key), not a broken setup.
 */
export function doctorCommand(): Command {
  return new Command("doctor")
    .description(
      "Check the configuration, database, stream bridge, sandbox, models, tools, MCP servers, plugins and skills.",
    )
    .action(async () => {
      const env = process.env;
      const loaded = await loadConfig({ env });
      const { config, source } = loaded;
      const baseDir = source ? dirname(source) : process.cwd();
      const sections = [
        configSection(loaded),
        await platformSection(config),
        tracingSection(config.tracing),
        modelSection(config, env),
        toolSection(config, env),
        await mcpSection(config, env),
        await pluginSection(config, baseDir),
        await skillSection(config, baseDir),
      ];
      const { text, failed } = renderDoctorReport(sections);
      process.stdout.write(text);
      if (failed) process.exitCode = 1;
    });
}
