import { loadPrompt } from '../prompts/load-prompt.js';

/** What the stages of one repository share; each stage gives the parts it needs. */
export interface SharedContext {
  paper?: string;
  design?: string;
  /** config.yaml as written. */
  config?: string;
  /** config_smoke.yaml as written. */
  smokeConfig?: string;
  /** The interpreter and package versions the code will run on (planning). */
  environment?: string;
}

/**
 * The system prompt of a paper-pipeline call: the role, then the shared material (design,
 * both configs, paper) under their names. It is the same for every call of a stage and
 * comes first, so providers can cache it; what a call asks comes after, in its messages.
 */
export function stableSystem(context: SharedContext): string {
  // Analysis, generation, the self-check's rewrite and the README send the same system
  // prompt (the condensed paper, design, both configs); planning sends the whole paper alone.
  const blocks = [
    context.design === undefined ? undefined : `<design>\n${context.design.trim()}\n</design>`,
    context.config === undefined
      ? undefined
      : `<config.yaml>\n${context.config.trim()}\n</config.yaml>`,
    context.smokeConfig === undefined
      ? undefined
      : `<config_smoke.yaml>\n${context.smokeConfig.trim()}\n</config_smoke.yaml>`,
    context.environment === undefined
      ? undefined
      : `<target-environment>\nThe code runs on this interpreter (verify installs what it lacks when the network allows); the design and requirements ask only for versions that fit it:\n${context.environment.trim()}\n</target-environment>`,
    context.paper === undefined ? undefined : `<paper>\n${context.paper.trim()}\n</paper>`,
  ].filter((block) => block !== undefined);
  const system = loadPrompt('repo-system').trim();
  if (blocks.length === 0) return system;
  return loadPrompt('repo-context', { system, context: blocks.join('\n\n') }).trim();
}
