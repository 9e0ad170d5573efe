import type { ModelAnswer, ModelCaller, ModelRequest, RoleName } from '../../src/llm/types.js';

/** A model caller for tests: answers from a script, in order, and records every request. */
export class RecordingModel implements ModelCaller {
  readonly requests: ModelRequest[] = [];
  private readonly answers: string[];

  constructor(answers: string[]) {
    this.answers = [...answers];
  }

  call(request: ModelRequest): Promise<ModelAnswer> {
    this.requests.push(request);
    const text = this.answers.shift();
    if (text === undefined) {
      return Promise.reject(
        new Error(
          `the test scripted no answer for request ${this.requests.length} (${request.label ?? request.role})`,
        ),
      );
    }
    return Promise.resolve({
      callId: this.requests.length,
      role: request.role,
      model: 'scripted:test',
      text,
      usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 },
      costUsd: 0,
      latencyMs: 0,
      attempts: 1,
    });
  }

  levels(_role: RoleName): number {
    return 1;
  }

  spec(_role: RoleName): string {
    return 'scripted:test';
  }

  /** Every answer was used. */
  get remaining(): number {
    return this.answers.length;
  }

  /** The user messages of request `index`, joined. */
  sent(index: number): string {
    const request = this.requests[index];
    if (request === undefined) throw new Error(`no request ${index} was made`);
    return request.messages.map((message) => message.content).join('\n');
  }
}
