import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultAgentOptions } from '../../agent/agent-options.js';
import type { ImplementResult } from '../../agent/final-result.js';
import { runImplement } from '../../agent/implement.js';
import type { TaskMetric } from '../../tasks/types.js';
import type { ExploredIdea } from '../exploration.js';
import { approveExperiment, experimentChannel } from '../explore-gates.js';
import { renderCandidates, searchHub } from '../retrieve/hub-search.js';
import type { ExperimentContext } from './experiment-context.js';
import { recordExperimentRun } from './experiment-runs.js';
import { buildExperimentTask, experimentMethodology } from './experiment-task.js';

/**
 * starter_code_performance.txt of an experiment. Unlike the implement run's own measurement
 * it states no wall time: it reaches the planner's prompt, which must be the same when a
 * recorded exploration is replayed.
 */
function baselinePerformanceText(metric: TaskMetric, raw: string): string {
  return `${metric.name}: ${raw}\n\nMeasured by codify: the prototype code run unchanged, as it runs without \`--seed\` (whatever that run computes: one default seed, or its own mean over several), before the experiment (goal: ${metric.goal}). A run of your final script on one seed need not match it: what counts is codify's comparison after the experiment, the final script against the unchanged code, seed by seed.\n`;
}

/** `--retrieve`: Hugging Face Hub candidates for the idea, kept in its folder; '' without. */
async function hubCandidates(context: ExperimentContext, idea: ExploredIdea): Promise<string> {
  const retrieve = context.settings.retrieve;
  if (retrieve === undefined) return '';
  const query = context.keywords?.[0] ?? idea.card.title;
  const found = await searchHub(query, retrieve);
  mkdirSync(join(context.folder, idea.id), { recursive: true });
  writeFileSync(
    join(context.folder, idea.id, 'candidates.json'),
    `${JSON.stringify(found, null, 2)}\n`,
  );
  context.run.emit({
    type: 'log',
    level: found.problem === undefined ? 'info' : 'warn',
    message:
      found.problem === undefined
        ? `${idea.id}: ${found.candidates.length} Hub candidates for "${query}"`
        : `${idea.id}: no Hub candidates, going on without them: ${found.problem}`,
  });
  return renderCandidates(found, context.baseline.task.network);
}

/** A new implement run for the idea: its candidates, the researcher's gate, its task. */
export async function startExperiment(
  context: ExperimentContext,
  idea: ExploredIdea,
  metric: TaskMetric,
  raw: string,
): Promise<ImplementResult> {
  const { settings, host, run, folder } = context;
  const candidates = await hubCandidates(context, idea);
  const approved = await approveExperiment(run, context.channel, idea, {
    methodology: experimentMethodology(idea.card, metric, candidates, settings.maxSeeds),
    maxSteps: settings.maxSteps ?? defaultAgentOptions.maxSteps,
    compute: context.compute ?? 'as the prototype code runs',
  });
  const feedback =
    context.channel === undefined ? undefined : experimentChannel(idea.id, context.channel);
  const agent = {
    ...(settings.maxSteps === undefined && approved.maxSteps === defaultAgentOptions.maxSteps
      ? {}
      : { maxSteps: approved.maxSteps }),
    // Interactive explorations steer their experiments step by step, questions included.
    ...(feedback === undefined ? {} : { interactive: true, questions: true }),
  };
  const taskDir = await buildExperimentTask({
    codeDir: settings.codeDir,
    destination: join(folder, idea.id, 'task'),
    methodology: approved.methodology,
    metric,
    name: `${idea.id}-${idea.card.title}`,
    baselinePerformance: baselinePerformanceText(metric, raw),
  });
  return runImplement({
    taskDir,
    models: context.models,
    sandbox: settings.sandbox,
    python: context.baseline.interpreter,
    gpu: settings.gpu,
    ...(settings.strategy === undefined ? {} : { strategy: settings.strategy }),
    ...(Object.keys(agent).length === 0 ? {} : { agent }),
    ...(feedback === undefined ? {} : { feedback }),
    ...(host.runsRoot === undefined ? {} : { runsRoot: host.runsRoot }),
    ...(host.signal === undefined ? {} : { signal: host.signal }),
    ...(host.childSinks === undefined ? {} : { sinks: host.childSinks }),
    ...(context.actions === undefined ? {} : { actions: context.actions }),
    argv: ['explore', '--run', idea.id],
    onRun: (child) => {
      recordExperimentRun(folder, idea.id, child);
      run.emit({
        type: 'log',
        level: 'info',
        message: `experiment ${idea.id} runs as ${child.id}`,
      });
    },
  });
}
