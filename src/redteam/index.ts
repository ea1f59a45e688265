// The red team's public face: the CLI builds an attack suite, runs it as an ordinary eval, and summarises it.
export type { RedteamPlugin, AttackCase, Attack } from './plugin-types.js';
export type { RedteamTargetInfo } from './target-info.js';
export { attackSuite, selectPlugins, type AttackSuiteOptions } from './attack-suite.js';
export { redteamSummary } from './summary.js';
export { findingsSuite } from './findings.js';
export { redteamPlugins } from './plugins.js';
export { instructionsCanary, plantedInstructions } from './target-facts.js';
