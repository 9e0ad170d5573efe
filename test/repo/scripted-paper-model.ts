import { storedMessages } from '../../src/llm/stored-messages.js';
import type { ModelAnswer, ModelCaller, ModelRequest } from '../../src/llm/types.js';
import type { RunContext } from '../../src/runs/context.js';

export type Answerer = (request: ModelRequest, attempt: number) => string;

/**
 * A ModelCaller for repo tests: answers by request label, counting attempts per label; with
 * a run, each answer is logged there as llm-end, as the real router does.
 */
export function labelledCaller(
  answers: Record<string, Answerer | string>,
  run?: RunContext,
): ModelCaller & {
  requests: ModelRequest[];
} {
  const requests: ModelRequest[] = [];
  const attempts = new Map<string, number>();
  let callId = 0;
  return {
    requests,
    call(request: ModelRequest): Promise<ModelAnswer> {
      requests.push(request);
      const label = request.label ?? '';
      const key = Object.keys(answers).find((prefix) => label.startsWith(prefix));
      if (key === undefined) return Promise.reject(new Error(`no scripted answer for ${label}`));
      const attempt = (attempts.get(label) ?? 0) + 1;
      attempts.set(label, attempt);
      const answer = answers[key];
      const text = typeof answer === 'function' ? answer(request, attempt) : (answer ?? '');
      callId += 1;
      const answered: ModelAnswer = {
        callId,
        role: request.role,
        model: 'scripted:paper',
        text,
        usage: { inputTokens: 100, outputTokens: 50, cachedInputTokens: 40 },
        costUsd: 0.001,
        latencyMs: 1,
        attempts: 1,
      };
      run?.emit({
        type: 'llm-end',
        ...answered,
        ...(request.label === undefined ? {} : { label: request.label }),
        ...(request.system === undefined ? {} : { system: request.system }),
        messages: storedMessages(request.messages),
      });
      return Promise.resolve(answered);
    },
    levels: () => 1,
    spec: () => 'scripted:paper',
  };
}

const fenced = (value: unknown) => `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;

/**
 * The two planning answers every paper fixture needs besides its own: the experiments map
 * (one experiment, run by config.yaml itself) and a checklist of one Code Development leaf.
 */
export const experimentsAndChecklist: Record<string, string> = {
  'plan-experiments': fenced({
    experiments: [{ id: 'main', source: 'Table 1', description: 'the main result', overrides: [] }],
  }),
  'plan-rubric': fenced({
    id: 'root',
    requirements: 'The paper is reproduced',
    weight: 1,
    sub_tasks: [
      {
        id: 'method',
        requirements: 'The method is implemented',
        weight: 1,
        sub_tasks: [],
        task_category: 'Code Development',
      },
    ],
  }),
};
