import { UsageError } from '../errors/codify-error.js';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import type { PaperDocument } from '../reader/document.js';
import { checkPdfForModelReader } from '../reader/read-paper-with-model.js';
import { loadTask } from '../tasks/load-task.js';
import { buildExperimentTask } from './experiments/experiment-task.js';
import type { ExperimentSettings } from './experiments/run-experiments.js';
import { checkRunSelection } from './experiments/select-ideas.js';
import { ExploreInputError } from './explore-input-error.js';
import { readExploreInputs, type ExploreInputs } from './explore-inputs.js';
import type { ExploreSettings } from './explore-settings.js';

/** The inputs as checked before the run exists, and the name its folder gets. */
export interface CheckedExploration {
  inputs: ExploreInputs;
  name: string;
}

/**
 * Everything the researcher gave, checked before a run folder exists, so a bad path or flag
 * stops the command with nothing spent. A model reads PDFs only inside the run (so the
 * reading is logged and paid once); here they count as pending documents.
 */
export async function checkExploration(settings: ExploreSettings): Promise<CheckedExploration> {
  await checkExperimentSettings(settings.experiments);
  const byModel = settings.paperReader === 'model';
  if (byModel) {
    for (const path of settings.paperPaths) await checkPdfForModelReader(path);
  }
  const inputs = byModel
    ? await readExploreInputs(settings, pendingDocument)
    : await readExploreInputs(settings);
  const first = settings.paperPaths[0] ?? 'explore';
  const name = byModel ? basename(first, extname(first)) : (inputs.papers[0]?.document.title ?? '');
  return { inputs, name: name || 'explore' };
}

/** `--run` and `--code` are checked before anything runs. */
async function checkExperimentSettings(experiments: ExperimentSettings | undefined): Promise<void> {
  if (experiments === undefined) return;
  const problem = checkRunSelection(experiments.select);
  // A --run value that does not parse is a usage error; a --code folder that cannot hold
  // experiments is an input problem.
  if (problem !== undefined) throw new UsageError(problem);
  if (!existsSync(experiments.codeDir) || !statSync(experiments.codeDir).isDirectory()) {
    throw new ExploreInputError(
      `--code: ${experiments.codeDir} is not a folder; give the prototype code (a folder with starter_code.py, or an MLAgentBench folder)`,
    );
  }
  // The experiments' tasks are built from it later; a folder that cannot make one fails now.
  const scratch = mkdtempSync(join(tmpdir(), 'codify-code-check-'));
  try {
    await loadTask(
      await buildExperimentTask({
        codeDir: experiments.codeDir,
        destination: join(scratch, 'task'),
        methodology: 'check\n',
      }),
    );
  } catch (error) {
    throw new ExploreInputError(
      `--code: ${experiments.codeDir} cannot hold experiments: ${error instanceof Error ? error.message : String(error)}`,
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * What a PDF counts as while the inputs are checked before the run exists: the model reads
 * the papers only inside the run (so the reading is logged and paid once), and this check
 * needs no more than the path, already checked to be a PDF. The real reading replaces it.
 */
function pendingDocument(path: string): Promise<PaperDocument> {
  return Promise.resolve({
    title: '',
    authors: [],
    abstract: '',
    sections: [],
    source: { format: 'pdf', path },
  });
}
