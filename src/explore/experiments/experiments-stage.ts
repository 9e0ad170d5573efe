import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ActionDefinition } from '../../agent/actions/types.js';
import type { ModelCaller } from '../../llm/types.js';
import type { RunScope } from '../../runs/lifecycle.js';
import type { Run } from '../../runs/run.js';
import type { MeasuredIdeas } from '../explore-closing.js';
import type { ExploredIdea } from '../exploration.js';
import { pickExperiments } from '../explore-gates.js';
import { explainChoices, renderChoices } from '../review-choice.js';
import type { MeasuredBaseline } from './experiment-context.js';
import { renderExperimentReport } from './render-report.js';
import { runExperiments, type ExperimentSettings } from './run-experiments.js';
import { selectIdeas } from './select-ideas.js';

export interface ExperimentsInput {
  /** The ideas ranked by the judge. */
  ranked: readonly ExploredIdea[];
  settings: ExperimentSettings;
  /** Each experiment's implement run gets its own caller from this (logged in that run). */
  models: (run: Run) => ModelCaller;
  keywords: readonly string[];
  compute: string;
  /** The baseline measured before the ideas (grounding); measured here when absent. */
  baseline?: MeasuredBaseline;
  actions?: readonly ActionDefinition[];
}

/**
 * Gate 2 (the researcher picks the ideas to run), then stages `experiments` (the baseline
 * and one implement run per chosen idea) and `report` (report.md, ranked by measurement).
 */
export async function experimentsAndReport(
  scope: RunScope,
  input: ExperimentsInput,
): Promise<MeasuredIdeas> {
  const { run, stages, host } = scope;
  const picked = await pickExperiments(
    run,
    host.feedback,
    input.ranked,
    selectIdeas(input.settings.select, input.ranked),
  );
  const settings = { ...input.settings, ...(picked === undefined ? {} : { select: picked }) };
  const experiments = await stages.run(
    'experiments',
    () =>
      runExperiments({
        run,
        stages,
        host,
        ideas: input.ranked,
        settings,
        models: input.models,
        judge: scope.models,
        keywords: input.keywords,
        compute: input.compute,
        ...(input.baseline === undefined ? {} : { baseline: input.baseline }),
        ...(input.actions === undefined ? {} : { actions: input.actions }),
      }),
    {
      describe: (records) => records.map((record) => `${record.idea} ${record.status}`).join(', '),
    },
  );
  const report = await stages.run('report', () => {
    const path = join(run.dir, 'report.md');
    const choices = renderChoices(
      explainChoices(settings.select, input.ranked, picked !== undefined),
    );
    writeFileSync(path, `${renderExperimentReport(experiments, run.dir)}\n${choices}`);
    run.emit({ type: 'artifact-write', path, kind: 'report' });
    return Promise.resolve(path);
  });
  return { experiments, report };
}
