import { z } from 'zod';
import type { ModelCaller } from '../llm/types.js';
import { loadPrompt } from '../prompts/load-prompt.js';
import { askStructured } from '../llm/structured-answer.js';
import { fitFiles } from './fit-files.js';
import { isCodeFile, isPlanningDocument } from './repository-files.js';
import type { LeafCategory } from './rubric-tree.js';
import { renderedChars, renderListing, type SourceFile } from './source-file.js';

/** What the judge of one leaf reads: the whole candidate set, or the files it picked. */
export interface LeafFiles {
  shown: SourceFile[];
  /** Candidates the judge did not see (only named in the prompt). */
  named: string[];
  selection: 'whole' | 'picked';
}

/**
 * The files a leaf of this kind is judged on: codify's planning documents never (they are
 * not the code); a Code Development leaf on code and configuration only; execution and
 * result leaves on the rest of the repository too (its README, its notes on results).
 */
export function candidateFiles(files: readonly SourceFile[], category: LeafCategory): SourceFile[] {
  return files.filter(
    (file) =>
      !isPlanningDocument(file.path) && (category !== 'Code Development' || isCodeFile(file.path)),
  );
}

/** How many files the judge may pick, as PaperBench's judge does. */
export const maxPickedFiles = 10;

/**
 * PaperBench's choice of files for a leaf: the whole candidate set when it fits
 * `budgetChars`, otherwise the judge reads the paper, the requirement and the listing of
 * the repository and names the files it needs, most relevant first; they are shown in that
 * order while they fit. A path not in the listing is asked again with the problem.
 */
export async function relevantFiles(options: {
  judge: ModelCaller;
  candidates: readonly SourceFile[];
  budgetChars: number;
  paper: string;
  addendum: string;
  requirement: string;
  category: LeafCategory;
  categoryHelp: string;
  label: string;
  temperature?: number;
}): Promise<LeafFiles> {
  const { candidates } = options;
  if (renderedChars(candidates) <= options.budgetChars)
    return { shown: [...candidates], named: [], selection: 'whole' };
  const byPath = new Map(candidates.map((file) => [file.path, file]));
  const { value } = await askStructured(
    options.judge,
    {
      role: 'judge',
      label: options.label,
      expect: 'JSON: {"files": ["path", ...]}',
      ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
      messages: [
        {
          role: 'user',
          content: loadPrompt('eval-rubric-pick-files', {
            paper: options.paper,
            addendum: options.addendum,
            requirement: options.requirement,
            category: options.category,
            category_help: options.categoryHelp,
            listing: renderListing(candidates),
            max_files: String(maxPickedFiles),
          }),
        },
      ],
    },
    z.object({ files: z.array(z.string()).min(1) }),
    {
      check: (answer) => {
        const unknown = answer.files.filter((path) => !byPath.has(normalize(path)));
        return unknown.length === 0
          ? undefined
          : `not in the listing: ${unknown.join(', ')}; name files exactly as listed`;
      },
    },
  );
  const picked = [...new Set(value.files.map(normalize))]
    .slice(0, maxPickedFiles)
    .flatMap((path) => {
      const file = byPath.get(path);
      return file === undefined ? [] : [file];
    });
  const { shown, named } = fitFiles(picked, options.budgetChars);
  const pickedPaths = new Set(picked.map((file) => file.path));
  return {
    shown,
    named: [
      ...named,
      ...candidates.filter((file) => !pickedPaths.has(file.path)).map((file) => file.path),
    ],
    selection: 'picked',
  };
}

// A judge may write "./model.py" or "/model.py" for the listed "model.py".
const normalize = (path: string): string => path.trim().replace(/^\.?\//, '');
