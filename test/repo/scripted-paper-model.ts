import { storedMessages } from '../../src/llm/stored-messages.js';
import type { ModelAnswer, ModelCaller, ModelRequest } from '../../src/llm/types.js';
import type { RunContext } from '../../src/runs/context.js';

export type Answerer = (request: ModelRequest, attempt: number) => string;

/**
 * A ModelCaller for repo tests: answers by request label, counting attempts per label; with
 * a run, each answer is logged there as llm-end, as the real router does. A fixture gives
 * the reproduction checklist under `plan-rubric`: the first planning answer (`plan-overall`)
 * is then that checklist followed by the plan, as the prompt asks.
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
      const text = answerText(answers, key, request, attempt);
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

function answerText(
  answers: Record<string, Answerer | string>,
  key: string,
  request: ModelRequest,
  attempt: number,
): string {
  const answer = answers[key];
  const text = typeof answer === 'function' ? answer(request, attempt) : (answer ?? '');
  const rubric = answers['plan-rubric'];
  if (key !== 'plan-overall' || rubric === undefined) return text;
  return `${typeof rubric === 'function' ? rubric(request, attempt) : rubric}\n\n${text}`;
}

const fenced = (value: unknown) => `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;

/** One experiment, run by config.yaml itself: what a fixture's configuration answer maps. */
const mainExperiment = {
  id: 'main',
  source: 'Table 1',
  description: 'the main result',
  overrides: [],
};

/**
 * The design answer (one JSON block) from its two parts as a fixture writes them: the
 * architecture (approach, files with their purpose, diagrams) and the logic design (each
 * file's logic and imports under `fileLogic`, order, packages, shared knowledge, entry point).
 */
export function designAnswer(
  architecture: { files: { path: string; purpose: string }[] } & Record<string, unknown>,
  logic: { fileLogic: ({ path: string } & Record<string, unknown>)[] } & Record<string, unknown>,
): string {
  const { fileLogic, ...rest } = logic;
  const files = architecture.files.map((file) => ({
    ...file,
    ...fileLogic.find((item) => item.path === file.path),
  }));
  return fenced({ ...architecture, ...rest, files });
}

/** The configuration answer: entries and smoke overrides, with one experiment unless it maps its own. */
export function settingsAnswer(config: Record<string, unknown>): string {
  return fenced({ experiments: [mainExperiment], ...config });
}

/** The checklist every paper fixture needs besides its own answers: one Code Development leaf. */
export const checklist: Record<string, string> = {
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
