import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chooseInterpreter } from '../../agent/implement.js';
import { throwIfStopped } from '../../errors/run-stopped.js';
import type { Run } from '../../runs/run.js';
import type { Stages } from '../../runs/stages.js';
import { createSandbox } from '../../sandbox/index.js';
import { loadTask } from '../../tasks/load-task.js';
import { measureStarter } from '../../tasks/measure-starter.js';
import type { MeasuredBaseline } from './experiment-context.js';
import { buildExperimentTask } from './experiment-task.js';
import type { ExperimentSettings } from './run-experiments.js';

/** What the baseline stage keeps for a resumed exploration: the output is read back from its file. */
interface BaselineRun {
  outputPath: string;
  exitCode: number | null;
  ran: boolean;
  /** Wall time of the run (absent in stages stored before the prototype summary). */
  durationMs?: number;
}

/**
 * Stage `baseline`: the prototype code run once, unchanged, in the sandbox the experiments
 * use. A resumed exploration reads the stored output instead of running it again.
 */
export async function measureBaseline(
  run: Run,
  stages: Stages,
  settings: ExperimentSettings,
  signal: AbortSignal | undefined,
): Promise<MeasuredBaseline> {
  const folder = join(run.dir, 'experiments', 'baseline');
  const task = await loadTask(
    await buildExperimentTask({
      codeDir: settings.codeDir,
      destination: join(folder, 'task'),
      methodology: 'The prototype code as given: the baseline every experiment is compared with.\n',
    }),
  );
  const interpreter = await chooseInterpreter(task, settings.python);
  const sandbox = await createSandbox(settings.sandbox);
  const measured = await stages.run<BaselineRun>(
    'baseline',
    async () => {
      const { execution } = await measureStarter({
        task,
        sandbox,
        interpreter,
        runDir: folder,
        gpu: settings.gpu,
        ...(signal === undefined ? {} : { signal }),
      });
      // A baseline cut off by a stop is no measurement: it must not be kept as one.
      throwIfStopped(signal);
      run.emit({
        type: 'execution-end',
        script: task.entrypoint,
        args: task.args,
        exitCode: execution.exitCode,
        signal: execution.signal,
        timedOut: execution.timedOut,
        durationMs: execution.durationMs,
        outputPath: execution.outputPath,
      });
      const ran = execution.exitCode === 0 && !execution.timedOut;
      return {
        outputPath: execution.outputPath,
        exitCode: execution.exitCode,
        ran,
        durationMs: execution.durationMs,
      };
    },
    {
      detail: `${task.entrypoint} in ${settings.codeDir}`,
      describe: (baseline) =>
        baseline.ran
          ? `ran; output in ${baseline.outputPath}`
          : `did not run (exit ${String(baseline.exitCode)})`,
    },
  );
  return {
    task,
    interpreter,
    sandbox,
    output: readFileSync(measured.outputPath, 'utf8'),
    outputPath: measured.outputPath,
    ran: measured.ran,
    exitCode: measured.exitCode,
    ...(measured.durationMs === undefined ? {} : { durationMs: measured.durationMs }),
  };
}
