import { loadPrompt } from '../../prompts/load-prompt.js';

/**
 * The idea stages' prompt parts for an exploration with `--code`; each is empty without a
 * prototype, so an exploration without one sends exactly the prompts it did before.
 */

/** The system prompt with the prototype summary after it: a prefix shared by every call. */
export function groundedSystem(system: string, prototype: string | undefined): string {
  return prototype === undefined ? system : `${system}\n\n${prototype}`;
}

/** For the ideas and refine prompts: plans must run on the prototype, each step classified. */
/**
 * The compute section of the idea and refinement prompts: the compute itself, or, with a
 * prototype, a pointer to its summary in the system prompt (which states the compute
 * already), then the grounding instruction.
 */
export function computeSection(compute: string, prototype: string | undefined): string {
  return prototype === undefined
    ? compute
    : `As the prototype's Compute line in the system prompt states.${groundedPlanInstruction(prototype)}`;
}

export function groundedPlanInstruction(prototype: string | undefined): string {
  return prototype === undefined ? '' : `\n\n${loadPrompt('explore-grounded-plan').trimEnd()}`;
}

/** How the answer's shape shows a `procedure`: plain steps, or steps classified on the prototype. */
export function procedureShape(prototype: string | undefined): string {
  return prototype === undefined
    ? '["…"]'
    : '[{ "step": "…", "runsOnPrototype": true, "reason": "…" }]';
}

/**
 * The judge's system prompt (every review and the meta-review) with the prototype summary
 * and how feasibility is judged against it after it.
 */
export function groundedJudgeSystem(system: string, prototype: string | undefined): string {
  return prototype === undefined
    ? system
    : `${system}\n\n${loadPrompt('explore-grounded-review', { prototype }).trimEnd()}`;
}
