/** Every knob of the research agent; all have defaults (ResearchCodeAgent's where it gives one). */
export interface AgentOptions {
  /** Steps before the budget forces a final answer. */
  maxSteps: number;
  /** Wall-clock minutes before the budget forces a final answer; null for none. */
  maxMinutes: number | null;
  /** Total model tokens (input + output) before the budget forces a final answer; null for none. */
  maxTokens: number | null;
  /** Dollars before the budget forces a final answer; null for none. */
  maxCostUsd: number | null;
  /** Answers asked of each planner cascade level in one step before the next level answers. */
  attemptsPerLevel: number[];
  /** Steps in a row without a valid answer that end the run. */
  maxFailedSteps: number;
  /**
   * Previous steps given to the planner in full at least (short-term memory); they are folded
   * into the research log this many at a time, once twice as many would be shown.
   */
  shortTermSteps: number;
  /** Observations longer than this are summarized before the planner sees them. */
  observationCharLimit: number;
  /** Consecutive understanding or coding actions allowed at step 0... */
  poolCapStart: number;
  /** ...decaying as floor(start · e^(−decay · step)), never below 1. */
  poolCapDecay: number;
  /** Request Planning Expert Help calls allowed in one run. */
  expertHelpLimit: number;
  planningTemperature: number;
  workerTemperature: number;
  /** Pause after every step for approval or a comment. */
  interactive: boolean;
  /**
   * Offer the planner the optional Questions field. Interactive runs ask them; others record
   * them and go on. Off by default, so the planner prompt of other runs is unchanged.
   */
  questions: boolean;
}

export const defaultAgentOptions: AgentOptions = {
  maxSteps: 50,
  maxMinutes: null,
  maxTokens: null,
  maxCostUsd: null,
  attemptsPerLevel: [8, 4, 1],
  maxFailedSteps: 3,
  shortTermSteps: 3,
  observationCharLimit: 8000,
  poolCapStart: 15,
  poolCapDecay: 0.01,
  expertHelpLimit: 3,
  planningTemperature: 0.8,
  workerTemperature: 0.2,
  interactive: false,
  questions: false,
};

/** The defaults with the given fields replaced (undefined fields keep their default). */
export function agentOptions(overrides: Partial<AgentOptions> = {}): AgentOptions {
  const options = { ...defaultAgentOptions };
  for (const [key, value] of Object.entries(overrides)) {
    if (value !== undefined) Object.assign(options, { [key]: value });
  }
  return options;
}
