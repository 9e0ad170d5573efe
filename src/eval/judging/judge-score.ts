import { z } from 'zod';
import { cutText, fitFiles } from '../../grading/fit-files.js';
import { renderedChars, renderFiles, type SourceFile } from '../../grading/source-file.js';
import { defaultContextTokens } from '../../llm/context-windows.js';
import type { ModelCaller } from '../../llm/types.js';
import { loadPrompt } from '../../prompts/load-prompt.js';
import { askStructured } from '../../llm/structured-answer.js';
import type { CodifyEventBody } from '../../runs/events.js';

const critique = z.object({
  file: z.string(),
  function: z.string(),
  severity: z.enum(['high', 'medium', 'low']),
  critique: z.string().min(1),
});

const scoreAnswer = z.object({
  critiques: z.array(critique),
  score: z.number().int().min(1).max(5),
});

export type Critique = z.infer<typeof critique>;

export interface JudgeScore {
  /** The mean over samples (each sample the size-weighted mean over the repository's parts). */
  score: number;
  samples: number[];
  parts: number;
  critiques: Critique[];
  /** The temperature each sample was drawn at (absent: the judge role's). */
  temperature?: number;
  /** What was cut or split and why, when the judge did not see everything in one prompt. */
  split?: string;
}

/** PaperCoder's protocol: 8 judgements at temperature 1, averaged. */
export const defaultJudgeSamples = 8;
export const defaultJudgeTemperature = 1;

// About four characters a token; 10k tokens kept for the answer and the prompt's own text.
const charsPerToken = 4;
const bufferChars = 10_000 * charsPerToken;
// Below this, a part would show too little code to judge; the reference or paper is cut instead.
const minimumPartChars = 8_000;

/** Splits files into parts of at most `budget` characters; a larger file is a part of its own, cut. */
export function splitIntoParts(files: readonly SourceFile[], budget: number): SourceFile[][] {
  const parts: SourceFile[][] = [];
  let current: SourceFile[] = [];
  let size = 0;
  for (const file of files) {
    const fitted =
      file.content.length > budget
        ? {
            path: file.path,
            content: `${file.content.slice(0, budget)}\n… (cut: ${file.content.length - budget} more characters)`,
          }
        : file;
    if (size + fitted.content.length > budget && current.length > 0) {
      parts.push(current);
      current = [];
      size = 0;
    }
    current.push(fitted);
    size += fitted.content.length;
  }
  if (current.length > 0) parts.push(current);
  return parts;
}

export interface JudgeScoreOptions {
  paper: string;
  files: readonly SourceFile[];
  judge: ModelCaller;
  /** Judgements averaged (PaperCoder: 8). */
  samples: number;
  /** The authors' repository: the score becomes PaperCoder's reference-based one. */
  reference?: readonly SourceFile[];
  /** Temperature of each judgement (PaperCoder: 1); absent, the judge role's. */
  temperature?: number;
  /** The judge model's input context in tokens; the one reason to split (default 128k). */
  contextTokens?: number;
  /** A fixed split: parts of at most this many characters, judged separately (codify used 40 000 before). */
  budgetChars?: number;
  /** Cut the reference to this many characters (codify used 20 000 before). */
  referenceBudgetChars?: number;
  /** Cut the paper to this many characters (codify used 60 000 before). */
  paperChars?: number;
  emit?: (body: CodifyEventBody) => void;
  item: string;
  runDir: string;
}

interface Layout {
  paper: string;
  reference: readonly SourceFile[] | undefined;
  parts: SourceFile[][];
  notes: string[];
}

/**
 * What goes in each prompt: everything whole when it fits the judge's context (PaperCoder's
 * protocol); otherwise the repository is split into parts that fit beside the paper (and
 * the reference, cut first when even a part has no room), and the notes say so. Fixed cuts
 * and parts asked for by the options are applied as asked.
 */
function layout(options: JudgeScoreOptions): Layout {
  const notes: string[] = [];
  let paper = options.paper;
  if (options.paperChars !== undefined && paper.length > options.paperChars) {
    paper = cutText(paper, options.paperChars);
    notes.push(`the paper cut to ${options.paperChars} characters (judge.paper_chars)`);
  }
  let reference = options.reference;
  if (reference !== undefined && options.referenceBudgetChars !== undefined) {
    const fitted = fitFiles(reference, options.referenceBudgetChars);
    if (fitted.named.length > 0 || renderedChars(fitted.shown) < renderedChars(reference))
      notes.push(
        `the reference cut to ${options.referenceBudgetChars} characters (judge.reference_chars)`,
      );
    reference = fitted.shown;
  }
  if (options.budgetChars !== undefined) {
    const parts = splitIntoParts(options.files, options.budgetChars);
    if (parts.length > 1)
      notes.push(
        `judged in ${parts.length} parts of at most ${options.budgetChars} characters (judge.part_chars)`,
      );
    return { paper, reference, parts, notes };
  }
  const contextTokens = options.contextTokens ?? defaultContextTokens;
  const usable = contextTokens * charsPerToken - bufferChars;
  const referenceChars = () => (reference === undefined ? 0 : renderedChars(reference));
  let room = usable - paper.length - referenceChars();
  if (room < minimumPartChars && reference !== undefined) {
    const budget = Math.max(0, usable - paper.length - minimumPartChars);
    reference = fitFiles(reference, budget).shown;
    notes.push(`the reference cut to ${budget} characters to fit the judge's context`);
    room = usable - paper.length - referenceChars();
  }
  if (room < minimumPartChars) {
    const budget = Math.max(0, usable - referenceChars() - minimumPartChars);
    paper = cutText(paper, budget);
    notes.push(`the paper cut to ${budget} characters to fit the judge's context`);
    room = minimumPartChars;
  }
  const size = renderedChars(options.files);
  if (size <= room) return { paper, reference, parts: [[...options.files]], notes };
  const parts = splitIntoParts(options.files, room);
  notes.push(
    `the repository (${size} characters) does not fit the judge's context of ${contextTokens} tokens beside the paper: judged in ${parts.length} parts`,
  );
  return { paper, reference, parts, notes };
}

/**
 * PaperCoder's model-based evaluation: the judge lists critiques (file, function,
 * severity) and scores the repository 1–5 given the whole paper and the whole repository
 * in one prompt; `samples` judgements (PaperCoder: 8 at temperature 1) are averaged. Only
 * a repository the judge's context cannot hold is judged in parts, each part's score
 * weighted by its size, and the result says so. Invalid answers are asked again.
 */
export async function judgeScore(options: JudgeScoreOptions): Promise<JudgeScore> {
  const { paper, reference, parts, notes } = layout(options);
  const renderedReference = reference === undefined ? undefined : renderFiles(reference);
  const kind = renderedReference === undefined ? 'score' : 'reference score';
  const samples: number[] = [];
  const critiques: Critique[] = [];
  for (let sample = 1; sample <= options.samples; sample += 1) {
    let weighted = 0;
    let total = 0;
    for (const [index, part] of parts.entries()) {
      const several = parts.length > 1;
      const { value } = await askStructured(
        options.judge,
        {
          role: 'judge',
          label: `judge ${kind} ${sample}${several ? ` part ${index + 1}/${parts.length}` : ''}`,
          expect: 'JSON: {"critiques": [...], "score": 1 to 5}',
          ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
          messages: [
            {
              role: 'user',
              content: loadPrompt(
                renderedReference === undefined ? 'eval-judge-score' : 'eval-judge-score-reference',
                {
                  paper,
                  ...(renderedReference === undefined ? {} : { reference: renderedReference }),
                  part: several ? ` (part ${index + 1} of ${parts.length})` : '',
                  part_note: several ? '; the other parts are judged separately' : '',
                  files: renderFiles(part),
                },
              ),
              // Each sample asks the same: the later ones read the request from the cache.
              ...(options.samples > 1 ? { cacheMark: true as const } : {}),
            },
          ],
        },
        scoreAnswer,
      );
      const size = part.reduce((sum, file) => sum + file.content.length, 0) || 1;
      weighted += value.score * size;
      total += size;
      critiques.push(...value.critiques);
    }
    const score = weighted / total;
    samples.push(score);
    options.emit?.({
      type: 'judge-grade',
      item: options.item,
      runDir: options.runDir,
      node: `${kind} sample ${sample}`,
      score,
      reason: `${parts.length} part(s)`,
    });
  }
  return {
    score: samples.reduce((sum, value) => sum + value, 0) / Math.max(1, samples.length),
    samples,
    parts: parts.length,
    critiques,
    ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
    ...(notes.length === 0 ? {} : { split: notes.join('; ') }),
  };
}
