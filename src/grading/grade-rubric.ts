import { z } from 'zod';
import { defaultContextTokens } from '../llm/context-windows.js';
import type { ModelCaller } from '../llm/types.js';
import { loadPrompt } from '../prompts/load-prompt.js';
import { askStructured } from '../llm/structured-answer.js';
import type { CodifyEventBody } from '../runs/events.js';
import { cutText } from './fit-files.js';
import { candidateFiles, type LeafFiles, relevantFiles } from './relevant-files.js';
import {
  type LeafCategory,
  type LeafGrade,
  leavesOf,
  type RubricNode,
  scoreTree,
  type ScoredNode,
} from './rubric-tree.js';
import { renderedChars, renderFiles, type SourceFile } from './source-file.js';

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
  /**
   * Grade the Code Development leaves in one call when the code fits whole (paper mode's
   * self-check); PaperBench, and so `codify eval`, grades each leaf in a call of its own.
   */
  codeLeavesTogether?: boolean;
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

/** What a leaf is judged on besides its requirement: paper, addendum, files, output. */
interface ShownMaterial {
  paper: string;
  addendum: string;
  /** What running the repository printed: only for execution and result leaves. */
  outputs: string | undefined;
  files: LeafFiles;
}

/**
 * The judge's system prompt and the part of the material that goes before the requirement.
 * With the whole candidate set shown, the files (and output) are the same for every leaf of
 * a kind, so they join the paper in the system prompt: one prefix, byte-identical from leaf
 * to leaf, that a provider's cache serves. Files the judge picked differ per leaf and go
 * in the request.
 */
function judgePrompt(
  shown: ShownMaterial,
  category: LeafCategory,
): { system: string; inRequest: string } {
  const { files } = shown;
  const heading =
    files.selection === 'whole'
      ? category === 'Code Development'
        ? "The repository's code and configuration"
        : "The repository's files"
      : 'The files you picked as most relevant, in your order';
  const material = [
    `# ${heading}\n\n${renderFiles(files.shown)}\n\n`,
    files.named.length === 0 ? '' : `Other files, not shown: ${files.named.join(', ')}.\n\n`,
    shown.outputs === undefined
      ? ''
      : `# What running the repository printed\n\n${shown.outputs}\n\n`,
  ].join('');
  const whole = files.selection === 'whole';
  const system = loadPrompt('eval-rubric-system', {
    paper: shown.paper,
    addendum: shown.addendum,
    shown: whole ? material : '',
  }).trimEnd();
  return { system, inRequest: whole ? '' : material };
}

/** The judge's 0/1 grade of one leaf, from the prompt the protocol gives it. */
async function askLeafGrade(
  options: GradeRubricOptions,
  leaf: RubricNode,
  shown: ShownMaterial & { context: string },
): Promise<z.infer<typeof leafAnswer>> {
  const category = leaf.category ?? 'Code Development';
  const prompt = judgePrompt(shown, category);
  const { value } = await askStructured(
    options.judge,
    {
      role: 'judge',
      label: `rubric ${leaf.id}`,
      expect: 'JSON: {"score": 0 or 1, "reason": "..."}',
      ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
      system: prompt.system,
      messages: [
        {
          role: 'user',
          content: loadPrompt('eval-rubric-leaf', {
            shown: prompt.inRequest,
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
 * The leaves under the requirements they belong to, each of those said once: the root
 * first, then each run of leaves under the same parent after that parent's path.
 */
export function groupedRequirements(
  leaves: readonly RubricNode[],
  context: ReadonlyMap<string, string[]>,
): string {
  const paths = leaves.map((leaf) => context.get(leaf.id) ?? []);
  const root = paths[0]?.[0];
  const sharedRoot = root !== undefined && paths.every((path) => path[0] === root);
  const lines: string[] = sharedRoot ? [`They all belong to: ${root}`] : [];
  let previous: string | undefined;
  leaves.forEach((leaf, index) => {
    const path = (paths[index] ?? []).slice(sharedRoot ? 1 : 0).join(' → ');
    if (path !== previous) lines.push(path === '' ? '' : `Under: ${path}`);
    previous = path;
    lines.push(`## ${leaf.id}\n${leaf.requirements}`);
  });
  return lines.filter((line) => line !== '').join('\n\n');
}

const leavesAnswer = z.object({ grades: z.array(leafAnswer.extend({ id: z.string().min(1) })) });

/**
 * Several Code Development leaves graded in one call, on the same whole code and paper
 * (`codeLeavesTogether`): one grade per leaf id, each id exactly once.
 */
async function askLeafGrades(
  options: GradeRubricOptions,
  leaves: readonly RubricNode[],
  shown: ShownMaterial,
  context: ReadonlyMap<string, string[]>,
): Promise<Map<string, z.infer<typeof leafAnswer>>> {
  const category: LeafCategory = 'Code Development';
  const prompt = judgePrompt(shown, category);
  const requirements = groupedRequirements(leaves, context);
  const ids = leaves.map((leaf) => leaf.id);
  const { value } = await askStructured(
    options.judge,
    {
      role: 'judge',
      label: `rubric ${ids.length} code leaves`,
      expect: 'JSON: {"grades": [{"id": "...", "score": 0 or 1, "reason": "..."}]}',
      ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
      system: prompt.system,
      messages: [
        {
          role: 'user',
          content: `${prompt.inRequest}${loadPrompt('eval-rubric-leaves', {
            requirements,
            category,
            category_help: categoryHelp[category],
          })}`,
        },
      ],
    },
    leavesAnswer,
    {
      check: (answer) => {
        const given = answer.grades.map((grade) => grade.id);
        const missing = ids.filter((id) => !given.includes(id));
        const unknown = given.filter((id) => !ids.includes(id));
        const twice = given.filter((id, index) => given.indexOf(id) !== index);
        const problems = [
          missing.length > 0 ? `no grade for ${missing.join(', ')}` : '',
          unknown.length > 0 ? `no requirement has the id ${unknown.join(', ')}` : '',
          twice.length > 0 ? `graded twice: ${twice.join(', ')}` : '',
        ].filter((problem) => problem !== '');
        return problems.length === 0
          ? undefined
          : `${problems.join('; ')}; give exactly one grade for each id listed`;
      },
    },
  );
  return new Map(
    value.grades.map((grade) => [grade.id, { score: grade.score, reason: grade.reason }]),
  );
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
  const fittedFor = (category: LeafCategory) => {
    const executed = category !== 'Code Development';
    const fitted = fitContext(
      paperText,
      executed ? options.outputs || '(nothing ran)' : '',
      contextChars - addendum.length,
    );
    for (const note of fitted.notes) notes.add(note);
    return { ...fitted, budgetChars: Math.min(options.budgetChars ?? Infinity, fitted.roomChars) };
  };
  const together = options.codeLeavesTogether
    ? await gradeCodeLeavesTogether(options, addendum, context, fittedFor)
    : new Map<string, LeafGrade>();
  for (const leaf of leavesOf(options.rubric)) {
    const category = leaf.category ?? 'Code Development';
    const executed = category !== 'Code Development';
    const gradedTogether = together.get(leaf.id);
    if (gradedTogether !== undefined) {
      grades.push(gradedTogether);
      emitGrade(options, gradedTogether);
      continue;
    }
    const fitted = fittedFor(category);
    const { budgetChars } = fitted;
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
    emitGrade(options, grade);
  }
  return {
    tree: scoreTree(options.rubric, new Map(grades.map((grade) => [grade.id, grade]))),
    grades,
    notes: [...notes],
  };
}

function emitGrade(options: GradeRubricOptions, grade: LeafGrade): void {
  options.emit?.({
    type: 'judge-grade',
    item: options.item,
    runDir: options.runDir,
    node: grade.id,
    score: grade.score,
    reason: grade.reason,
  });
}

/**
 * `codeLeavesTogether`: the Code Development leaves graded in one call when their files fit
 * whole beside the paper (every such leaf is shown the same code then, so one reading
 * serves them all). Empty when there are fewer than two or the files do not fit: those
 * leaves are graded one by one.
 */
async function gradeCodeLeavesTogether(
  options: GradeRubricOptions,
  addendum: string,
  context: ReadonlyMap<string, string[]>,
  fittedFor: (category: LeafCategory) => { paper: string; budgetChars: number },
): Promise<Map<string, LeafGrade>> {
  const codeLeaves = leavesOf(options.rubric).filter(
    (leaf) => (leaf.category ?? 'Code Development') === 'Code Development',
  );
  const candidates = candidateFiles(options.files, 'Code Development');
  if (codeLeaves.length < 2) return new Map();
  const fitted = fittedFor('Code Development');
  if (renderedChars(candidates) > fitted.budgetChars) return new Map();
  const answers = await askLeafGrades(
    options,
    codeLeaves,
    {
      paper: fitted.paper,
      addendum,
      outputs: undefined,
      files: { shown: candidates, named: [], selection: 'whole' },
    },
    context,
  );
  return new Map(
    codeLeaves.map((leaf) => {
      const answer = answers.get(leaf.id) ?? { score: 0 as const, reason: 'not graded' };
      const grade: LeafGrade = {
        id: leaf.id,
        score: answer.score,
        reason: answer.reason,
        files: candidates.map((file) => file.path),
        selection: 'whole',
      };
      return [leaf.id, grade];
    }),
  );
}
