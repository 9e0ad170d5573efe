import { UsageError } from '../errors/codify-error.js';
import type { CodifyConfig } from '../config/codify-config.js';
import type { RunContext } from '../runs/context.js';
import type { AnswerRequest, AnswerResult, Answerer } from './answerer.js';
import { CallTimeoutError } from './call-timeout-error.js';
import { addAnswer, emptyTotals, type CallTotals } from './call-totals.js';
import { ModelCallError } from './model-call-error.js';
import { ModelUnreachableError } from './model-unreachable-error.js';
import { costOf } from './prices.js';
import { RecordingWriter } from './recording-writer.js';
import { storedMessages } from './stored-messages.js';
import { abortReason, judgeFailure, retryDelay, sleep } from './retry-policy.js';
import type { ModelAnswer, ModelCaller, ModelRequest, RoleName } from './types.js';

/** Turns a spec into whatever answers it; see resolve-answerer.ts. */
export type AnswererSource = (spec: string) => Answerer;

export interface RouterOptions {
  run?: RunContext;
  /** Write every completed call to this JSONL file; defaults to config.record. */
  record?: string;
  /** For tests: the jitter source. */
  random?: () => number;
  /** Calls the run completed before this process (a resume); call ids continue after them. */
  completedCalls?: number;
}

/**
 * The one ModelCaller of a run: picks the spec for a role and cascade level, retries
 * transient failures (rate limits, 5xx, timeouts, dropped connections) with backoff, fails at
 * once when no connection can be made, times attempts out, prices answers, records them and
 * announces every call as events.
 */
export class ModelRouter implements ModelCaller {
  private callCount: number;
  private runningTotals: CallTotals = emptyTotals();
  private readonly answerers = new Map<string, Answerer>();
  private readonly recording: RecordingWriter | undefined;

  constructor(
    readonly config: CodifyConfig,
    private readonly source: AnswererSource,
    private options: RouterOptions = {},
  ) {
    this.callCount = options.completedCalls ?? 0;
    const record = options.record ?? config.record;
    this.recording = record === undefined ? undefined : new RecordingWriter(record);
  }

  levels(role: RoleName): number {
    return Math.max(1, this.config.roles[role].models.length);
  }

  spec(role: RoleName, level = 0): string {
    const models = this.config.roles[role].models;
    return models[Math.min(level, models.length - 1)] ?? '(no model set)';
  }

  /** Sends this caller's events to a run created after the caller (run-start needs the models). */
  useRun(run: RunContext): void {
    this.options.run = run;
  }

  /** Tokens and dollars spent by every completed call so far. */
  totals(): CallTotals {
    return { ...this.runningTotals };
  }

  async call(request: ModelRequest): Promise<ModelAnswer> {
    const callId = ++this.callCount;
    const spec = this.pickSpec(request);
    const settings = this.config.roles[request.role];
    const answerer = this.answererFor(spec);
    const base = { callId, role: request.role, model: spec };
    this.options.run?.emit({
      type: 'llm-start',
      ...base,
      ...(request.label === undefined ? {} : { label: request.label }),
    });
    const started = Date.now();
    let attempts = 0;
    for (;;) {
      attempts += 1;
      const attemptRequest: Omit<AnswerRequest, 'signal'> = {
        callId,
        role: request.role,
        spec,
        messages: request.messages,
        temperature: request.temperature ?? settings.temperature,
        ...optional('system', request.system),
        ...optional('expect', request.expect),
        ...optional('label', request.label),
        ...optional('maxOutputTokens', request.maxOutputTokens ?? settings.maxOutputTokens),
      };
      try {
        const result = await this.attempt(answerer, attemptRequest, request.signal);
        return this.finish(request, spec, callId, result, Date.now() - started, attempts);
      } catch (error) {
        const verdict = judgeFailure(error);
        const cancelled = request.signal?.aborted === true;
        const canRetry =
          !cancelled &&
          answerer.remote &&
          verdict.retryable &&
          attempts <= this.config.retry.maxRetries;
        if (!canRetry) {
          this.options.run?.emit({ type: 'llm-error', ...base, message: verdict.reason, attempts });
          if (cancelled) throw abortReason(request.signal);
          // Local answerers (exchange, replay) fail with messages meant for the user as they are.
          if (!answerer.remote && error instanceof Error) throw error;
          if (verdict.unreachable !== undefined) {
            throw new ModelUnreachableError(request.role, spec, attempts, verdict.unreachable, {
              cause: error,
            });
          }
          throw new ModelCallError(request.role, spec, attempts, verdict.reason, { cause: error });
        }
        const delayMs = retryDelay(
          attempts,
          this.config.retry,
          verdict.retryAfterMs,
          this.options.random,
        );
        this.options.run?.emit({
          type: 'llm-retry',
          ...base,
          attempt: attempts,
          delayMs,
          reason: verdict.reason,
        });
        try {
          await sleep(delayMs, request.signal);
        } catch (cancel) {
          this.options.run?.emit({ type: 'llm-error', ...base, message: 'cancelled', attempts });
          throw cancel;
        }
      }
    }
  }

  private pickSpec(request: ModelRequest): string {
    const models = this.config.roles[request.role].models;
    const level = request.level ?? 0;
    if (models.length === 0) {
      throw new UsageError(
        `no model is set for the ${request.role} role: pass --model SPEC (or --${request.role} SPEC), set CODIFY_MODEL, or set "model" in codify.config.json`,
      );
    }
    const spec = models[level];
    if (spec === undefined) {
      throw new Error(
        `the ${request.role} role has ${models.length} cascade level(s) (${models.join(', ')}); level ${level} does not exist`,
      );
    }
    return spec;
  }

  private answererFor(spec: string): Answerer {
    const known = this.answerers.get(spec);
    if (known !== undefined) return known;
    const answerer = this.source(spec);
    this.answerers.set(spec, answerer);
    return answerer;
  }

  /** One attempt, under the per-call timeout for network models, cancellable by the caller. */
  private async attempt(
    answerer: Answerer,
    request: Omit<AnswerRequest, 'signal'>,
    outer: AbortSignal | undefined,
  ): Promise<AnswerResult> {
    const controller = new AbortController();
    const onOuterAbort = (): void => controller.abort(outer?.reason);
    if (outer?.aborted === true) throw abortReason(outer);
    outer?.addEventListener('abort', onOuterAbort, { once: true });
    const timeoutMs = this.config.timeoutMs;
    let timedOut = false;
    const timer = answerer.remote
      ? setTimeout(() => {
          timedOut = true;
          controller.abort(new CallTimeoutError(timeoutMs));
        }, timeoutMs)
      : undefined;
    try {
      return await answerer.answer({ ...request, signal: controller.signal });
    } catch (error) {
      throw timedOut ? new CallTimeoutError(timeoutMs) : error;
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuterAbort);
    }
  }

  private finish(
    request: ModelRequest,
    spec: string,
    callId: number,
    result: AnswerResult,
    latencyMs: number,
    attempts: number,
  ): ModelAnswer {
    const costUsd =
      result.costUsd !== undefined
        ? result.costUsd
        : costOf(spec, result.usage, this.config.prices);
    const answer: ModelAnswer = {
      callId,
      role: request.role,
      model: spec,
      text: result.text,
      usage: result.usage,
      costUsd,
      latencyMs,
      attempts,
    };
    this.runningTotals = addAnswer(this.runningTotals, answer);
    const messages = storedMessages(request.messages);
    this.recording?.write({
      call: callId,
      role: request.role,
      model: spec,
      ...optional('system', request.system),
      messages,
      text: result.text,
      usage: result.usage,
      costUsd,
    });
    this.options.run?.emit({
      type: 'llm-end',
      callId,
      role: request.role,
      model: spec,
      ...optional('label', request.label),
      ...optional('system', request.system),
      messages,
      text: result.text,
      usage: result.usage,
      costUsd,
      latencyMs,
      attempts,
    });
    return answer;
  }
}

/** `{ key: value }` when value is set, `{}` otherwise (exactOptionalPropertyTypes-friendly). */
function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}
