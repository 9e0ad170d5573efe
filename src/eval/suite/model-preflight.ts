import { resolve } from 'node:path';
import type { CodifyConfig } from '../../config/codify-config.js';
import { CodifyError, errorMessage } from '../../errors/codify-error.js';
import { apiKeyFor } from '../../llm/hosted-model.js';
import {
  isHostedProvider,
  parseModelSpec,
  type HostedProviderName,
  type ModelSpec,
} from '../../llm/model-spec.js';
import { readRecording } from '../../llm/read-recording.js';
import { roleNames } from '../../llm/types.js';
import { configForRun } from '../dispatch/run-config.js';
import { stateOf } from '../dispatch/run-state.js';
import { judgeSpec, needsJudge } from '../judging/judge-spec.js';
import type { PlannedRun } from './plan-runs.js';
import type { Suite } from './suite.js';
import { SuiteError } from './suite-error.js';

export interface ModelCheck {
  /** Models supplied by spec (a test or embedding program, or a queue's workers): `scripted:` is allowed then. */
  supplied: boolean;
  /** Check hosted providers' API keys here (not with a queue: the workers hold their own). */
  apiKeys: boolean;
}

/**
 * Every model spec the runs still to do would use (the suite's models, the command's
 * roles, the judge), checked before the evaluation starts anything: it parses, a hosted
 * provider has its API key, and a `replay:` recording exists and reads as one. What the
 * runs would otherwise find one at a time, minutes in, stops the command at once: a bad
 * spec or recording with exit code 3 (the suite or flag to fix), a missing key with 4.
 */
export function checkModels(
  suite: Suite,
  config: CodifyConfig,
  planned: PlannedRun[],
  check: ModelCheck,
): void {
  const recordings = new Set<string>();
  const judge = needsJudge(suite) ? judgeSpec(suite, config) : undefined;
  if (judge !== undefined) checkSpec(judge, 'judge', suite, config, check, recordings);
  for (const run of planned) {
    if (stateOf(run).kind === 'finished') continue;
    const specs = run.model.specsFor(run.item.name, run.strategy, run.trial);
    const runConfig = configForRun(
      config,
      specs,
      run.item.kind === 'explore' ? (suite.judge.model ?? specs.expert) : suite.judge.model,
    );
    // The judge role reviews an exploration's ideas; elsewhere it is checked above, when needed.
    const roles = roleNames.filter((role) => role !== 'judge' || run.item.kind === 'explore');
    for (const role of roles) {
      for (const text of runConfig.roles[role].models) {
        checkSpec(text, `${run.key} (${role})`, suite, runConfig, check, recordings);
      }
    }
  }
}

function checkSpec(
  text: string,
  where: string,
  suite: Suite,
  config: CodifyConfig,
  check: ModelCheck,
  recordings: Set<string>,
): void {
  let spec: ModelSpec;
  try {
    spec = parseModelSpec(text);
  } catch (error) {
    throw new SuiteError(`${suite.file}: ${where}: ${errorMessage(error)}`);
  }
  if (spec.provider === 'scripted' && !check.supplied) {
    throw new SuiteError(
      `${suite.file}: ${where}: ${text} is a test model that only a program embedding codify can supply; name a provider (e.g. openai:gpt-4o-mini) or replay:FILE`,
    );
  }
  if (spec.provider === 'replay') {
    const file = resolve(config.cwd ?? process.cwd(), spec.model);
    if (recordings.has(file)) return;
    try {
      readRecording(file);
    } catch (error) {
      throw new SuiteError(`${suite.file}: ${where}: ${errorMessage(error)}`);
    }
    recordings.add(file);
  }
  if (check.apiKeys && !check.supplied && isHostedProvider(spec.provider)) {
    try {
      apiKeyFor(
        spec as ModelSpec & { provider: HostedProviderName },
        config.providers[spec.provider],
        process.env,
      );
    } catch (error) {
      // The key's error names the variable to set; its exit code (4) stays.
      if (error instanceof CodifyError) throw error;
      throw new SuiteError(`${suite.file}: ${where}: ${errorMessage(error)}`);
    }
  }
}
