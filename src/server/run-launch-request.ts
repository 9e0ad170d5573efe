import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { HttpError } from './http-error.js';

/** POST /api/runs: what the browser may ask to start. */
export interface RunLaunchRequest {
  mode: 'implement' | 'paper' | 'explore';
  /** Task folder (implement) or paper file (paper, explore), on the server's machine. */
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
   * approve, comment, answer the planner's questions or stop. Explore: pause at the gates
   * (the analysis; the ideas to run).
   */
  interactive?: boolean;
  /** Explore: related work (a folder of papers, a BibTeX file or a text list). */
  related?: string;
  /** Explore: idea cards to write (1–20). */
  ideas?: number;
  /** Explore: rounds of revising each idea against its reviews (default 1; 0 for none). */
  refineRounds?: number;
  /** Explore: the ideas to run as experiments (`top:K`, `K`, `I1,I3`); needs `code`. */
  run?: string;
  /** Explore: the prototype folder the experiments start from. */
  code?: string;
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
  if (mode !== 'implement' && mode !== 'paper' && mode !== 'explore') {
    throw new HttpError(400, 'mode must be "implement", "paper" or "explore"');
  }
  if (typeof request.path !== 'string' || request.path.trim() === '') {
    throw new HttpError(
      400,
      mode === 'implement' ? 'path must name a task folder' : 'path must name a paper file',
    );
  }
  const path = existingPath(request.path, workingDirectory);
  const args: string[] = [mode, path];
  if (request.model !== undefined && request.model !== '') {
    if (typeof request.model !== 'string' || !modelPattern.test(request.model)) {
      throw new HttpError(400, 'model must be provider:model, e.g. openai:gpt-4o-mini');
    }
    args.push('--model', request.model);
  }
  if (request.interactive !== undefined && typeof request.interactive !== 'boolean') {
    throw new HttpError(400, 'interactive must be true or false');
  }
  if (mode === 'explore') args.push(...exploreArguments(request, workingDirectory));
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

/** A path on this machine, absolute, that exists. */
function existingPath(value: string, workingDirectory: string): string {
  const path = isAbsolute(value) ? value : resolve(workingDirectory, value);
  if (!existsSync(path)) throw new HttpError(400, `${path} does not exist on this machine`);
  return path;
}

const runPattern = /^(top:\d+|\d+|I\d+(,I\d+)*)$/;

/** Explore's own fields: related work, idea count, the experiments and their budget. */
function exploreArguments(request: Record<string, unknown>, workingDirectory: string): string[] {
  const args: string[] = [];
  const optionalPath = (field: 'related' | 'code', flag: string) => {
    const value = request[field];
    if (value === undefined || value === '') return;
    if (typeof value !== 'string') throw new HttpError(400, `${field} must be a path`);
    args.push(flag, existingPath(value, workingDirectory));
  };
  optionalPath('related', '--related');
  const ideas = request.ideas;
  if (ideas !== undefined && ideas !== '') {
    if (typeof ideas !== 'number' || !Number.isInteger(ideas) || ideas < 1 || ideas > 20) {
      throw new HttpError(400, 'ideas must be a whole number from 1 to 20');
    }
    args.push('--ideas', String(ideas));
  }
  const rounds = request.refineRounds;
  if (rounds !== undefined && rounds !== '') {
    if (typeof rounds !== 'number' || !Number.isInteger(rounds) || rounds < 0) {
      throw new HttpError(400, 'refineRounds must be a whole number, 0 or more');
    }
    args.push('--refine-rounds', String(rounds));
  }
  const run = request.run;
  if (run !== undefined && run !== '') {
    if (typeof run !== 'string' || !runPattern.test(run)) {
      throw new HttpError(400, 'run must be top:K, K, or idea ids such as I1,I3');
    }
    if (request.code === undefined || request.code === '') {
      throw new HttpError(400, 'run needs code: the prototype folder the experiments start from');
    }
    args.push('--run', run);
    optionalPath('code', '--code');
    const steps = request.maxSteps;
    if (steps !== undefined && steps !== '') {
      if (typeof steps !== 'number' || !Number.isInteger(steps) || steps < 1) {
        throw new HttpError(400, 'maxSteps must be a whole number above 0');
      }
      args.push('--max-steps', String(steps));
    }
  }
  if (request.interactive === true) args.push('--interactive');
  return args;
}
