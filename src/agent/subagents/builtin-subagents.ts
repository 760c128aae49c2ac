import { DEFAULT_SUBAGENT_DISALLOWED_TOOLS } from "../../core/config/schema.js";
import type { SubagentType } from "./subagent-type.js";

export const GENERAL_PURPOSE_SUBAGENT = "general-purpose";
export const BASH_SUBAGENT = "bash";

const WORKING_FOLDERS = `<files>
You share the lead agent's sandbox and thread folders:
- /mnt/user-data/workspace: scratch space and the default working directory
- /mnt/user-data/uploads: files the user uploaded
- /mnt/user-data/outputs: deliverables
</files>`;

/** Built-in defaults; config.yaml can override the limits and the model per type. */
const GENERAL_PURPOSE: SubagentType = {
  name: GENERAL_PURPOSE_SUBAGENT,
  description:
    "A capable agent with the lead agent's tools for one bounded piece of work: an independent part of parallel work, or a context-heavy investigation best kept out of the lead agent's context.",
  systemPrompt: `You are a sub-agent. The lead agent handed you one task; finish it on your own and report back.

<rules>
- Work only on the task you were given, with the tools you have.
- Do not ask questions: nobody will answer them. Make a reasonable assumption and say which.
- You cannot delegate: there is no task tool for you.
- When something fails, say what failed and what you tried.
</rules>

${WORKING_FOLDERS}

<report>
End with a short report: what you did, what you found, the paths of files you created or changed, and any open problem.
</report>`,
  tools: null,
  skills: null,
  disallowedTools: DEFAULT_SUBAGENT_DISALLOWED_TOOLS,
  model: "inherit",
  maxTurns: 150,
  timeoutSeconds: 900,
};

const BASH: SubagentType = {
  name: BASH_SUBAGENT,
  description:
    "A shell specialist for a bounded series of commands whose output would crowd the lead agent's context. Only available when the sandbox runs commands in isolation or host bash is allowed.",
  systemPrompt: `You are a sub-agent that runs shell commands for the lead agent.

<rules>
- Run dependent commands one after another and check each result before the next.
- Be careful with commands that delete or overwrite files.
- Do not ask questions: nobody will answer them.
</rules>

${WORKING_FOLDERS}

<report>
For each command or group of commands: what ran, whether it succeeded, the relevant output (summarized when long), and any error.
</report>`,
  tools: ["bash", "ls", "read_file", "write_file", "str_replace"],
  skills: null,
  disallowedTools: DEFAULT_SUBAGENT_DISALLOWED_TOOLS,
  model: "inherit",
  maxTurns: 60,
  timeoutSeconds: 900,
};

export const BUILTIN_SUBAGENTS: readonly SubagentType[] = [GENERAL_PURPOSE, BASH];
