import type { ModelAnswer, ModelCaller, ModelRequest } from '../../src/llm/types.js';

export type PlannerScript = (request: ModelRequest, step: number, attempt: number) => string;

export interface ScriptedCaller extends ModelCaller {
  requests: ModelRequest[];
}

/**
 * A ModelCaller for agent tests. The planner answers from `planner` given the step (read
 * from the request label) and the attempt within the step; summarizers answer with a
 * fixed line naming what they summarized; `other` answers every other role.
 */
export function scriptedCaller(options: {
  planner: PlannerScript;
  levels?: number;
  other?: (request: ModelRequest) => string;
  delayMs?: number;
  usage?: { inputTokens: number; outputTokens: number };
  costUsd?: number;
}): ScriptedCaller {
  const requests: ModelRequest[] = [];
  const attempts = new Map<number, number>();
  let callId = 0;
  return {
    requests,
    async call(request: ModelRequest): Promise<ModelAnswer> {
      requests.push(request);
      if (options.delayMs !== undefined) {
        await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      }
      let text: string;
      if (request.role === 'planner' && request.label?.startsWith('step ') === true) {
        const step = Number(request.label.slice(5));
        const attempt = attempts.get(step) ?? 0;
        attempts.set(step, attempt + 1);
        text = options.planner(request, step, attempt);
      } else if (request.role === 'summarizer') {
        text = `Summary (${request.label ?? ''}).`;
      } else if (options.other !== undefined) {
        text = options.other(request);
      } else {
        throw new Error(`no scripted answer for ${request.role} ${request.label ?? ''}`);
      }
      callId += 1;
      return {
        callId,
        role: request.role,
        model: `scripted:level${request.level ?? 0}`,
        text,
        usage: {
          cachedInputTokens: 0,
          ...(options.usage ?? { inputTokens: 100, outputTokens: 20 }),
        },
        costUsd: options.costUsd ?? 0.001,
        latencyMs: 0,
        attempts: 1,
      };
    },
    levels: (role) => (role === 'planner' ? (options.levels ?? 1) : 1),
    spec: (role, level) => `scripted:${role}${level ?? 0}`,
  };
}

/** A well-formed planner answer. */
export function plannerAnswer(action: string, input: unknown, thought = 'next step'): string {
  return `Reflection: going on
Research Plan and Status: 1. implement the method (in progress)
Fact Check: none yet
Thought: ${thought}
Action: ${action}
Action Input: ${JSON.stringify(input)}`;
}
