import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { HttpError } from './http-error.js';

/** POST /api/runs: what the browser may ask to start. */
export interface RunLaunchRequest {
  mode: 'implement' | 'paper';
  /** Task folder (implement) or paper file (paper), on the server's machine. */
  path: string;
  /** `provider:model`; default: the configuration's. */
  model?: string;
  strategy?: 'agent' | 'prescribed-plan' | 'single-call';
  maxSteps?: number;
  maxMinutes?: number;
  maxTokens?: number;
  maxCostUsd?: number;
  /**
   * Implement: pause after every step for the page (or anyone writing the run folder) to
   * approve, comment, answer the planner's questions or stop.
   */
  interactive?: boolean;
}

const strategies = new Set(['agent', 'prescribed-plan', 'single-call']);
const modelPattern = /^[a-z][a-z-]*:[^\s]+$/;

/**
 * Checks a start request field by field and turns it into the CLI's arguments. Every value is
 * its own argv element (no shell), paths are made absolute so none can pass for a flag.
 */
export function launchArguments(body: unknown, workingDirectory: string): string[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'send a JSON object: {"mode": "implement" | "paper", "path": "…"}');
  }
  const request = body as Record<string, unknown>;
  const mode = request.mode;
  if (mode !== 'implement' && mode !== 'paper') {
    throw new HttpError(400, 'mode must be "implement" or "paper"');
  }
  if (typeof request.path !== 'string' || request.path.trim() === '') {
    throw new HttpError(
      400,
      mode === 'implement' ? 'path must name a task folder' : 'path must name a paper file',
    );
  }
  const path = isAbsolute(request.path) ? request.path : resolve(workingDirectory, request.path);
  if (!existsSync(path)) throw new HttpError(400, `${path} does not exist on this machine`);
  const args: string[] = [mode, path];
  if (request.model !== undefined && request.model !== '') {
    if (typeof request.model !== 'string' || !modelPattern.test(request.model)) {
      throw new HttpError(400, 'model must be provider:model, e.g. openai:gpt-4o-mini');
    }
    args.push('--model', request.model);
  }
  if (mode === 'implement') {
    if (request.strategy !== undefined) {
      if (typeof request.strategy !== 'string' || !strategies.has(request.strategy)) {
        throw new HttpError(400, 'strategy must be agent, prescribed-plan or single-call');
      }
      args.push('--strategy', request.strategy);
    }
    const budgets: [string, string, boolean][] = [
      ['maxSteps', '--max-steps', true],
      ['maxMinutes', '--max-minutes', false],
      ['maxTokens', '--max-tokens', true],
      ['maxCostUsd', '--max-cost', false],
    ];
    if (request.interactive !== undefined && typeof request.interactive !== 'boolean') {
      throw new HttpError(400, 'interactive must be true or false');
    }
    if (request.interactive === true) args.push('--interactive');
    for (const [field, flag, whole] of budgets) {
      const value = request[field];
      if (value === undefined || value === null || value === '') continue;
      if (typeof value !== 'number' || !(value > 0) || (whole && !Number.isInteger(value))) {
        throw new HttpError(400, `${field} must be a ${whole ? 'whole ' : ''}number above 0`);
      }
      args.push(flag, String(value));
    }
  }
  return args;
}
