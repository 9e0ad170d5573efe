import { z } from 'zod';
import { defaultContextTokens } from '../llm/context-windows.js';
import type { ModelCaller } from '../llm/types.js';
import { loadPrompt } from '../prompts/load-prompt.js';
import { askStructured } from '../llm/structured-answer.js';
import type { CodifyEventBody } from '../runs/events.js';
import { cutText } from './fit-files.js';
import { candidateFiles, relevantFiles } from './relevant-files.js';
import {
  type LeafCategory,
  type LeafGrade,
  leavesOf,
  type RubricNode,
  scoreTree,
  type ScoredNode,
} from './rubric-tree.js';
import { renderFiles, type SourceFile } from './source-file.js';

const leafAnswer = z.object({
  score: z.union([z.literal(0), z.literal(1)]),
  reason: z.string().min(1),
});

const categoryHelp: Record<LeafCategory, string> = {
  'Code Development':
    'Does the code implement it correctly (whether or not it was run)? Judge the code only.',
  'Code Execution': 'Did running the repository do it, as the output above shows?',
  'Result Analysis':
    'Do the outputs of running the repository show the result the requirement asks for?',
};

export interface GradeRubricOptions {
  rubric: RubricNode;
  title: string;
  files: readonly SourceFile[];
  /** What running the repository printed (the reproduction's output), for execution and result leaves. */
  outputs: string;
  judge: ModelCaller;
  /** At most this many characters of files per leaf prompt (default: what the judge's context holds). */
  budgetChars?: number;
  emit?: (body: CodifyEventBody) => void;
  /** For judge-grade events. */
  item: string;
  runDir: string;
  /** The paper's text, in every leaf prompt (PaperBench); without it the prompt names only the title. */
  paper?: string;
  /** Clarifications of the paper for its reproduction (PaperBench's addendum). */
  addendum?: string;
  /** The judge model's input context in tokens (default 128k, see src/llm/context-windows.ts). */
  contextTokens?: number;
  /** The judge's temperature for every call (default: the judge role's). */
  temperature?: number;
}

export interface GradeRubricResult {
  tree: ScoredNode;
  grades: LeafGrade[];
  /** What did not fit the judge's context whole (paper or output cut), said once per kind; empty when all fit. */
  notes: string[];
}

// About four characters a token (src/llm/prices.ts estimateTokens); 10k tokens are kept
// for the answer and the prompt's own text, as PaperBench keeps a 10k-token buffer.
const charsPerToken = 4;
const bufferTokens = 10_000;

/** The requirements of the ancestors of each leaf, root first, so a leaf is read in context. */
function ancestry(
  node: RubricNode,
  path: string[] = [],
  into = new Map<string, string[]>(),
): Map<string, string[]> {
  for (const child of node.subTasks) {
    if (child.subTasks.length === 0) into.set(child.id, [...path, node.requirements]);
    else ancestry(child, [...path, node.requirements], into);
  }
  return into;
}

/**
 * What a leaf prompt carries besides the files, cut as PaperBench cuts it when the judge's
 * context cannot hold it: the output first (to half the context, then further), the paper
 * last. Returns the room left for files.
 */
function fitContext(
  paper: string,
  outputs: string,
  contextChars: number,
): { paper: string; outputs: string; roomChars: number; notes: string[] } {
  const notes: string[] = [];
  const usable = contextChars - bufferTokens * charsPerToken;
  let fittedOutputs = outputs;
  if (fittedOutputs.length > contextChars / 2) {
    fittedOutputs = cutText(fittedOutputs, Math.floor(contextChars / 2), 'end');
    notes.push('the output was cut to half the judge context (its end kept)');
  }
  let fittedPaper = paper;
  if (fittedPaper.length + fittedOutputs.length > usable) {
    const outputRoom = Math.max(0, usable - fittedPaper.length);
    if (outputRoom < fittedOutputs.length) {
      fittedOutputs = cutText(fittedOutputs, outputRoom, 'end');
      notes.push('the output was cut further to fit the judge context beside the paper');
    }
  }
  if (fittedPaper.length + fittedOutputs.length > usable) {
    fittedPaper = cutText(fittedPaper, Math.max(0, usable - fittedOutputs.length));
    notes.push('the paper was cut to fit the judge context');
  }
  return {
    paper: fittedPaper,
    outputs: fittedOutputs,
    roomChars: Math.max(0, usable - fittedPaper.length - fittedOutputs.length),
    notes,
  };
}

/** The judge's 0/1 grade of one leaf, from the prompt the protocol gives it. */
async function askLeafGrade(
  options: GradeRubricOptions,
  leaf: RubricNode,
  shown: {
    paper: string;
    addendum: string;
    /** What running the repository printed: only for execution and result leaves. */
    outputs: string | undefined;
    files: Awaited<ReturnType<typeof relevantFiles>>;
    context: string;
  },
): Promise<z.infer<typeof leafAnswer>> {
  const category = leaf.category ?? 'Code Development';
  const { files } = shown;
  const { value } = await askStructured(
    options.judge,
    {
      role: 'judge',
      label: `rubric ${leaf.id}`,
      expect: 'JSON: {"score": 0 or 1, "reason": "..."}',
      ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
      messages: [
        {
          role: 'user',
          content: loadPrompt('eval-rubric-leaf', {
            paper: shown.paper,
            addendum: shown.addendum,
            files_heading:
              files.selection === 'whole'
                ? category === 'Code Development'
                  ? "The repository's code and configuration"
                  : "The repository's files"
                : 'The files you picked as most relevant, in your order',
            files: renderFiles(files.shown),
            named:
              files.named.length === 0
                ? ''
                : `Other files, not shown: ${files.named.join(', ')}.\n\n`,
            outputs:
              shown.outputs === undefined
                ? ''
                : `# What running the repository printed\n\n${shown.outputs}\n\n`,
            requirement: leaf.requirements,
            context: shown.context,
            category,
            category_help: categoryHelp[category],
          }),
        },
      ],
    },
    leafAnswer,
  );
  return value;
}

/**
 * PaperBench's rubric grading, one path for `codify eval` and paper mode's self-check: the
 * judge grades each leaf 0/1 with a reason, shown the paper (and its addendum) every time,
 * the whole codebase when it fits the judge's context and otherwise the files it picks from
 * the repository's listing; Code Development leaves see code and configuration only,
 * execution and result leaves also what running the repository printed. codify's planning
 * documents are never shown as code. The tree's score is the weighted mean up the tree. An
 * answer that is not `{score: 0|1, reason}` is asked again with the problem.
 */
export async function gradeRubric(options: GradeRubricOptions): Promise<GradeRubricResult> {
  const context = ancestry(options.rubric);
  const contextChars = (options.contextTokens ?? defaultContextTokens) * charsPerToken;
  const paperText =
    options.paper === undefined || options.paper.trim() === ''
      ? `"${options.title}" (only its title was given)`
      : options.paper;
  const addendum =
    options.addendum === undefined || options.addendum.trim() === ''
      ? '(no addendum given)'
      : options.addendum;
  const grades: LeafGrade[] = [];
  const notes = new Set<string>();
  for (const leaf of leavesOf(options.rubric)) {
    const category = leaf.category ?? 'Code Development';
    const executed = category !== 'Code Development';
    const fitted = fitContext(
      paperText,
      executed ? options.outputs || '(nothing ran)' : '',
      contextChars - addendum.length,
    );
    for (const note of fitted.notes) notes.add(note);
    const budgetChars = Math.min(options.budgetChars ?? Infinity, fitted.roomChars);
    const files = await relevantFiles({
      judge: options.judge,
      candidates: candidateFiles(options.files, category),
      budgetChars,
      paper: fitted.paper,
      addendum,
      requirement: leaf.requirements,
      category,
      categoryHelp: categoryHelp[category],
      label: `rubric ${leaf.id} files`,
      ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
    });
    const value = await askLeafGrade(options, leaf, {
      paper: fitted.paper,
      addendum,
      outputs: executed ? fitted.outputs : undefined,
      files,
      context: (context.get(leaf.id) ?? []).join(' → ') || '(the root)',
    });
    const grade: LeafGrade = {
      id: leaf.id,
      score: value.score,
      reason: value.reason,
      files: files.shown.map((file) => file.path),
      selection: files.selection,
    };
    grades.push(grade);
    options.emit?.({
      type: 'judge-grade',
      item: options.item,
      runDir: options.runDir,
      node: leaf.id,
      score: grade.score,
      reason: grade.reason,
    });
  }
  return {
    tree: scoreTree(options.rubric, new Map(grades.map((grade) => [grade.id, grade]))),
    grades,
    notes: [...notes],
  };
}
