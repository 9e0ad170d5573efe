import { chooseInterpreter } from '../../agent/implement.js';
import type { CodifyConfig } from '../../config/codify-config.js';
import { createSandbox } from '../../sandbox/index.js';
import { loadTask } from '../../tasks/load-task.js';
import { judgeSpec, needsJudge } from '../judging/judge-spec.js';
import { checkExploreCode } from './explore-preflight.js';
import { seedVaried, type Suite } from './suite.js';
import { SuiteError } from './suite-error.js';

/** What would stop every run: checked once, before the evaluation folder is touched. */
export async function checkSuite(suite: Suite, config: CodifyConfig): Promise<void> {
  if (needsJudge(suite) && judgeSpec(suite, config) === undefined) {
    throw new SuiteError(
      `${suite.file}: judge: the suite has papers to judge but no judge model: set judge: {model: SPEC} in the suite, pass --judge SPEC, or set roles.judge in codify.config.json`,
    );
  }
  // A model without specs of its own (a folder suite) runs on the command's configuration.
  const usesConfig = suite.models.some((model) => model.fromConfiguration === true);
  const unset = (['planner', 'expert', 'worker', 'summarizer'] as const).filter(
    (role) => config.roles[role].models.length === 0,
  );
  if (usesConfig && unset.length > 0) {
    throw new SuiteError(
      `${suite.file}: no model is set for ${unset.join(', ')}: pass --model SPEC (or set the roles in codify.config.json), or write a suite file that names the models`,
    );
  }
  await createSandbox(suite.sandbox);
  for (const item of suite.items) {
    if (item.kind === 'explore') await checkExploreCode(suite, item);
    if (item.kind !== 'task') continue;
    const task = await loadTask(item.path);
    if (seedVaried(item) && task.seed === undefined) {
      throw new SuiteError(
        `${suite.file}: ${item.name}: the suite asks for ${item.seeds.length} seeds but ${task.dir}/task.json declares no seed: add "seed": {"flag": "--seed"} or {"env": "SEED"} there (how its starter reads the seed), or leave seeds: and --seeds out for this task`,
      );
    }
    if (seedVaried(item) && task.metric === undefined) {
      throw new SuiteError(
        `${suite.file}: ${item.name}: the suite asks for seeds but ${task.dir}/task.json declares no metric to compare them on: add "metric"`,
      );
    }
    await chooseInterpreter(task, suite.python);
  }
}
