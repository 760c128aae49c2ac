export type {
  AcquireArtifactLease,
  ArtifactLease,
  ArtifactProvider,
  ArtifactSandbox,
} from "./artifact-sandbox.js";
export {
  ARTIFACT_CONFLICT,
  ARTIFACT_UNAVAILABLE,
  type ImportVerification,
  type PreparedRun,
  ThreadArtifacts,
  type ThreadArtifactsDeps,
} from "./thread-artifacts.js";
