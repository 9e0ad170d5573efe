import type { AnswerRequest, AnswerResult, Answerer } from './answerer.js';
import { firstDifference, type ComparableRequest } from './first-difference.js';
import type { RecordedCall } from './recorded-call.js';
import { readRecording } from './read-recording.js';
import { ReplayError, ReplayMismatchError } from './replay-errors.js';
import { storedMessages } from './stored-messages.js';

export interface ReplayOptions {
  /**
   * Calls of the recording already answered before this process (a resumed run): the replay
   * starts at the call after them. Default 0.
   */
  skip?: number;
}

/**
 * `replay:FILE`: answers from a recording strictly in order, after checking that each
 * live request (role, system, messages) is the recorded one. One instance serves every
 * role that names the same file, so the order is the session's order.
 */
export class ReplayAnswerer implements Answerer {
  readonly remote = false;
  private calls: RecordedCall[] | undefined;
  private position: number;

  constructor(
    readonly file: string,
    options: ReplayOptions = {},
  ) {
    this.position = options.skip ?? 0;
  }

  answer(request: AnswerRequest): Promise<AnswerResult> {
    try {
      return Promise.resolve(
        this.next({
          role: request.role,
          ...(request.system === undefined ? {} : { system: request.system }),
          messages: storedMessages(request.messages),
        }),
      );
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /**
   * Answers a request as a run's event log holds it (files by hash), to move past the calls
   * a resumed run completed before; checked against the recording like any call.
   */
  answerLogged(request: ComparableRequest): AnswerResult {
    return this.next(request);
  }

  private next(request: ComparableRequest): AnswerResult {
    this.calls ??= readRecording(this.file);
    const recorded = this.calls[this.position];
    const number = this.position + 1;
    if (recorded === undefined) {
      if (this.position > this.calls.length) {
        throw new ReplayError(
          `replay: the run being resumed had completed ${this.position} model call(s), but the recording ${this.file} holds only ${this.calls.length}; resume with the recording the run was started with`,
        );
      }
      throw new ReplayError(
        `replay: call ${number} (${request.role}) goes past the end of the recording ${this.file}, which holds ${this.calls.length} call(s)`,
      );
    }
    const difference = firstDifference(recorded, request);
    if (difference !== undefined) {
      throw new ReplayMismatchError(recorded.call, request.role, difference);
    }
    this.position += 1;
    return { text: recorded.text, usage: recorded.usage, costUsd: recorded.costUsd ?? null };
  }
}
