/** The extension host: loads `plugins:` and keeps what they contributed and how they failed. */
export { isCompatibleApiVersion } from "./api-version.js";
export { describeExtensions } from "./describe-extensions.js";
export * from "./diagnostics.js";
export { emptyExtensions, type LoadExtensionsOptions, loadExtensions } from "./load-extensions.js";
export type * from "./loaded-extensions.js";
export { compilePayloadCheck, payloadSchemaProblem } from "./payload-schema.js";
export type { BuiltinPlugins } from "./resolve-plugin.js";
