import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chooseInterpreter } from '../../agent/implement.js';
import { buildExperimentTask } from '../../explore/experiments/experiment-task.js';
import { loadTask } from '../../tasks/load-task.js';
import type { ExploreItem, Suite } from './suite.js';
import { SuiteError } from './suite-error.js';

/**
 * An exploration's code: folder must make an experiment task, as `codify explore --code`
 * checks; checked once before the evaluation, not found out by every trial after its ideas.
 */
export async function checkExploreCode(suite: Suite, item: ExploreItem): Promise<void> {
  if (item.experiments === undefined) return;
  const scratch = mkdtempSync(join(tmpdir(), 'codify-eval-code-'));
  try {
    const task = await loadTask(
      await buildExperimentTask({
        codeDir: item.experiments.codeDir,
        destination: join(scratch, 'task'),
        methodology: 'check\n',
      }),
    );
    await chooseInterpreter(task, suite.python);
  } catch (error) {
    throw new SuiteError(
      `${suite.file}: item ${item.name}: code: ${item.experiments.codeDir} cannot hold experiments: ${error instanceof Error ? error.message : String(error)}`,
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
