/**
 * The system-prompt blocks a custom agent adds: its SOUL.md, how to persist changes to itself,
 * the creation interview of a bootstrap run, and the user's profile. SOUL.md and USER.md are
 * written by users and by the agent itself, so they are escaped: a value like `</soul>` cannot
 * close its block and move the rest out of it.
 */

export interface AgentPromptParts {
  /** The run's custom agent (its name), or null for the default agent. */
  agentName: string | null;
  /** SOUL.md of the run's agent (custom or default), or null. */
  soul: string | null;
  /** A bootstrap run: the user is creating the agent named `agentName`. */
  bootstrap: boolean;
  /** `update_agent` is bound to this run. */
  canSelfUpdate: boolean;
  /** The user's USER.md, or null. */
  userProfile: string | null;
}

/** The blocks joined, or null when the run has none. */
export function renderAgentPrompt(parts: AgentPromptParts): string | null {
  const blocks: string[] = [];
  if (parts.soul) blocks.push(`<soul>\n${escapeText(parts.soul)}\n</soul>`);
  if (parts.bootstrap) blocks.push(bootstrapBlock(parts.agentName));
  else if (parts.agentName && parts.canSelfUpdate) blocks.push(selfUpdateBlock(parts.agentName));
  if (parts.userProfile) {
    blocks.push(
      `<user_profile>\nWhat the user wrote about themselves (background, preferences); use it to tailor your work.\n${escapeText(parts.userProfile)}\n</user_profile>`,
    );
  }
  return blocks.length === 0 ? null : blocks.join("\n\n");
}

function selfUpdateBlock(agentName: string): string {
  return `<self_update>
You are the custom agent "${agentName}": your description, SOUL.md (the instructions above), model, tool groups and skills are stored with the user's agents.
When the user asks you to change any of them, persist the change with the update_agent tool; editing files in the sandbox does not change you.
- Pass soul as the complete new SOUL.md: start from the current one and apply the requested edits.
- Pass only the fields that change; leave the others out.
- skills: [] turns every skill off; leaving skills out keeps the current list.
- Changes apply from the user's next message; say so once update_agent succeeds.
</self_update>`;
}

function bootstrapBlock(agentName: string | null): string {
  const name = agentName ? `"${agentName}"` : "the new agent";
  return `<agent_setup>
The user is creating the custom agent ${name}. Interview them briefly: what the agent is for, who it serves, its tone, what it must always or never do. Ask one or two questions at a time and stop asking once you know enough.
Then write its SOUL.md: a clear Markdown description of the agent's identity, purpose, working style and boundaries, written to the agent ("You are …"). Call setup_agent with that soul and a one-line description (and skills, only if the user wants to limit them).
After setup_agent succeeds, tell the user the agent is ready.
</agent_setup>`;
}

function escapeText(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}
