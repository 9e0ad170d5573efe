import { existsSync, readdirSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import type { Suite, SuiteItem } from './suite.js';
import { defaultJudgeSamples, defaultJudgeTemperature } from '../judging/judge-score.js';
import { loadRubric } from '../judging/rubric.js';
import { SuiteError } from './suite-error.js';

const paperExtensions = new Set(['.pdf', '.tex', '.md', '.markdown']);
/** In a paper's own folder, the file that is the paper, first found first. */
const paperNames = ['paper.md', 'paper.tex', 'main.tex', 'paper.pdf'];

const isTaskFolder = (dir: string): boolean =>
  existsSync(join(dir, 'methodology_description.txt')) ||
  (existsSync(join(dir, 'env')) && existsSync(join(dir, 'scripts', 'research_problem.txt')));

/** The name the configuration's models run under in a folder suite. */
export const configuredModel = 'configured';

/**
 * A folder as a suite: each task folder in it (methodology_description.txt, or an
 * MLAgentBench env/ with scripts/research_problem.txt), each paper file (.pdf, .tex, .md;
 * not README) and each paper folder (paper.md, paper.tex, main.tex or paper.pdf, with a
 * rubric.json beside it graded when there is a judge, and its addendum.md). One trial of the agent strategy,
 * with the models the command is given (--model, codify.config.json): a suite file says
 * more.
 */
export function suiteFromFolder(dir: string): Suite {
  const items: SuiteItem[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    const path = join(dir, entry.name);
    if (entry.name.startsWith('.') || entry.name.startsWith('_')) continue;
    if (entry.isDirectory()) {
      if (isTaskFolder(path)) {
        items.push({ kind: 'task', name: entry.name, path, strategies: ['agent'], seeds: [] });
        continue;
      }
      const paper = paperNames.find((name) => existsSync(join(path, name)));
      if (paper !== undefined) {
        const rubric = join(path, 'rubric.json');
        const addendum = join(path, 'addendum.md');
        // A malformed rubric is reported now, naming the file and the node.
        if (existsSync(rubric)) loadRubric(rubric);
        items.push({
          kind: 'paper',
          name: entry.name,
          path: join(path, paper),
          ...(existsSync(rubric) ? { rubric } : {}),
          ...(existsSync(addendum) ? { addendum } : {}),
        });
      }
    } else if (
      entry.isFile() &&
      paperExtensions.has(extname(entry.name).toLowerCase()) &&
      !/^readme/i.test(entry.name)
    ) {
      items.push({ kind: 'paper', name: basename(entry.name, extname(entry.name)), path });
    }
  }
  if (items.length === 0) {
    throw new SuiteError(
      `${dir} holds no task folders (with methodology_description.txt) and no papers (.pdf, .tex, .md, or folders with paper.md): give a folder of them, or a suite file`,
    );
  }
  return {
    file: dir,
    name: basename(dir),
    items,
    strategies: ['agent'],
    // The command's own configuration answers every role.
    models: [{ name: configuredModel, specsFor: () => ({}), fromConfiguration: true }],
    trials: 1,
    budgets: {},
    paper: {},
    starterTrials: 3,
    judge: {
      enabled: false,
      samples: defaultJudgeSamples,
      temperature: defaultJudgeTemperature,
      includeDocs: false,
    },
    sandbox: 'bubblewrap',
  };
}
