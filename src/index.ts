/**
 * codify as a library: the pipelines the CLI drives, the services they are built on, and
 * the event types every interface consumes. The CLI (`bin/codify.js`) is one user of these.
 */
export { runImplement, chooseInterpreter } from './agent/implement.js';
export type { ImplementOptions } from './agent/implement.js';
export type { ImplementResult, MetricComparison } from './agent/final-result.js';
export { runPaper, resumePaper } from './repo/run-paper.js';
export type { PaperModels, PaperOutcome, PaperSettings } from './repo/run-paper.js';
export { loadConfig } from './config/load-config.js';
export type { CodifyConfig } from './config/codify-config.js';
export { createModelCaller } from './llm/create-model-caller.js';
export type { ModelCallerOptions } from './llm/create-model-caller.js';
export type { ModelCaller, RoleName, Usage, ChatMessage } from './llm/types.js';
export * from './reader/index.js';
export * from './runs/index.js';
export * from './tasks/index.js';
export * from './sandbox/index.js';
export * from './workspace/index.js';
