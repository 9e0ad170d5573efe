import type { LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';
import type { CodifyConfig } from '../config/codify-config.js';
import { defaultConfig } from '../config/default-config.js';
import type { RunContext } from '../runs/context.js';
import { estimateTokens } from './estimate-tokens.js';
import { LanguageModelAnswerer } from './language-model-answerer.js';
import { promptToChat } from './prompt-to-chat.js';
import { ModelRouter } from './router.js';
import { roleNames, type ChatMessage, type RoleName } from './types.js';

/** What a scripted model was sent, one per call it answered (or failed). */
export interface ScriptedRequest {
  system?: string;
  messages: ChatMessage[];
  temperature?: number;
  maxOutputTokens?: number;
}

/**
 * One scripted answer: the text, a function of the request giving the text, or an Error
 * to throw (e.g. an APICallError with statusCode 429 to exercise retries).
 */
export type ScriptedAnswer = string | Error | ((request: ScriptedRequest) => string | Error);

export interface ScriptedModel {
  /** An AI SDK language model (MockLanguageModelV3) answering from the script, in order. */
  model: MockLanguageModelV3;
  /** Every request it received, in order. */
  requests: ScriptedRequest[];
}

/**
 * A language model that answers from a list, in order, and keeps what it was sent.
 * Running out of answers fails with a message naming the model and the call.
 * Usage is estimated at four characters a token.
 */
export function createScriptedModel(
  answers: ScriptedAnswer[],
  name = 'scripted',
  /** Another list to add each request to, e.g. one shared by a role's cascade levels. */
  alsoRecordTo?: ScriptedRequest[],
): ScriptedModel {
  const requests: ScriptedRequest[] = [];
  const model = new MockLanguageModelV3({
    provider: 'scripted',
    modelId: name,
    doGenerate: (options): Promise<LanguageModelV3GenerateResult> => {
      const chat = promptToChat(options.prompt);
      const request: ScriptedRequest = {
        ...chat,
        ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
        ...(options.maxOutputTokens === undefined
          ? {}
          : { maxOutputTokens: options.maxOutputTokens }),
      };
      requests.push(request);
      alsoRecordTo?.push(request);
      const next = answers[requests.length - 1];
      if (next === undefined) {
        return Promise.reject(
          new Error(
            `scripted model ${name} has no answer for call ${requests.length}: it was given ${answers.length}`,
          ),
        );
      }
      const answer = typeof next === 'function' ? next(request) : next;
      if (answer instanceof Error) return Promise.reject(answer);
      const sent = [chat.system ?? '', ...chat.messages.map((message) => message.content)].join('');
      return Promise.resolve({
        content: [{ type: 'text', text: answer }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: {
            total: estimateTokens(sent),
            noCache: estimateTokens(sent),
            cacheRead: 0,
            cacheWrite: 0,
          },
          outputTokens: {
            total: estimateTokens(answer),
            text: estimateTokens(answer),
            reasoning: 0,
          },
        },
        warnings: [],
      });
    },
  });
  return { model, requests };
}

/** A role's script: answers in order, or per cascade level for the planner. */
export type ScriptedRole = ScriptedAnswer[] | { levels: ScriptedAnswer[][] };

export interface ScriptedCallerOptions {
  run?: RunContext;
  record?: string;
  /** Adjust the configuration (retry delays, timeout, temperatures) before the caller is built. */
  configure?: (config: CodifyConfig) => void;
}

export interface ScriptedCaller {
  /** A real ModelRouter (events, totals, retries, recording) over scripted models. */
  caller: ModelRouter;
  /** What each role was sent, in order; for the planner, every level's requests together. */
  requests: Record<RoleName, ScriptedRequest[]>;
  /** What each cascade level of each role was sent. */
  requestsByLevel: Record<RoleName, ScriptedRequest[][]>;
}

/**
 * A ModelCaller for tests whose roles answer from scripts, e.g.
 * `createScriptedCaller({ planner: ['Thought: ...'], worker: [(request) => 'ok'] })`.
 * Roles left out answer nothing (their first call fails clearly). Specs read
 * `scripted:<role>` (level 0) and `scripted:<role>@<level>`. Retries wait 1 ms.
 */
export function createScriptedCaller(
  script: Partial<Record<RoleName, ScriptedRole>>,
  options: ScriptedCallerOptions = {},
): ScriptedCaller {
  const config = defaultConfig();
  config.retry = { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 5 };
  config.timeoutMs = 10_000;
  const models = new Map<string, ScriptedModel>();
  const requests = {} as Record<RoleName, ScriptedRequest[]>;
  const requestsByLevel = {} as Record<RoleName, ScriptedRequest[][]>;
  for (const role of roleNames) {
    const entry = script[role] ?? [];
    const levels = Array.isArray(entry) ? [entry] : entry.levels;
    const specs = levels.map((_, level) =>
      level === 0 ? `scripted:${role}` : `scripted:${role}@${level}`,
    );
    const roleRequests: ScriptedRequest[] = [];
    const built = levels.map((answers, level) =>
      createScriptedModel(answers, specs[level], roleRequests),
    );
    built.forEach((model, level) => models.set(specs[level] ?? '', model));
    config.roles[role].models = specs;
    requestsByLevel[role] = built.map((model) => model.requests);
    requests[role] = roleRequests;
  }
  options.configure?.(config);
  const caller = new ModelRouter(
    config,
    (spec) => {
      const scripted = models.get(spec);
      if (scripted === undefined) throw new Error(`no scripted model is named ${spec}`);
      return new LanguageModelAnswerer(scripted.model);
    },
    {
      ...(options.run === undefined ? {} : { run: options.run }),
      ...(options.record === undefined ? {} : { record: options.record }),
    },
  );
  return { caller, requests, requestsByLevel };
}
