import { AgentRunError, type PluginRoute } from "../../extensions/api/index.js";
import type { Teams } from "./teams.js";

const ID = /^[0-9a-f]{32}$/;
const VERSION = /^[1-9][0-9]{0,8}$/;

/**
 * `GET /api/extensions/community.agent-teams/teams/:team_id/artifacts/:artifact_id/:version`:
 * a ready artifact version's bytes, for the team's owner. Another user's team, an unknown or
 * not-yet-ready version, and content that no longer matches its digest are all 404 (another
 * user's team is indistinguishable from a missing one). The host picks the content type from the
 * artifact's name and serves active types (HTML, SVG) as attachments.
 */
export function teamRoutes(teams: Teams): PluginRoute[] {
  return [
    {
      method: "GET",
      path: "/teams/:team_id/artifacts/:artifact_id/:version",
      handler: async ({ params }, context) => {
        const teamId = params.team_id ?? "";
        const artifactId = params.artifact_id ?? "";
        const version = params.version ?? "";
        if (!ID.test(teamId) || !ID.test(artifactId) || !VERSION.test(version)) {
          throw new AgentRunError(
            404,
            "Artifact unavailable: address it as /teams/<team id>/artifacts/<artifact id>/<version ≥ 1>.",
          );
        }
        const store = teams.store;
        const found = await store
          .artifact(context.principal.userId, teamId, artifactId, Number(version))
          .catch((error: unknown) => {
            const message = error instanceof Error ? error.message : String(error);
            throw new AgentRunError(404, message);
          });
        return { bytes: found.content, filename: found.artifact.name };
      },
    },
  ];
}
