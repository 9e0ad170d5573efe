import { z } from 'zod';
import type { ModelCaller } from '../../llm/types.js';
import { loadPrompt } from '../../prompts/load-prompt.js';
import { askStructured } from '../../repo/structured-answer.js';
import type { CodifyEventBody } from '../../runs/events.js';
import { renderFiles, selectRelevantFiles, type SourceFile } from './relevant-files.js';

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
}

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

/**
 * PaperCoder's reference-free model-based evaluation: the judge lists critiques (file,
 * function, severity) and scores the repository 1–5 given the paper; `samples` answers are
 * averaged. A repository too large for one prompt is judged in parts, each part's score
 * weighted by its size, so judging never fails on length. Invalid answers are asked again.
 */
export async function judgeScore(options: {
  paper: string;
  files: readonly SourceFile[];
  judge: ModelCaller;
  samples: number;
  /** The authors' repository: the score becomes PaperCoder's reference-based one. */
  reference?: readonly SourceFile[];
  budgetChars?: number;
  referenceBudgetChars?: number;
  emit?: (body: CodifyEventBody) => void;
  item: string;
  runDir: string;
}): Promise<JudgeScore> {
  const parts = splitIntoParts(options.files, options.budgetChars ?? 40_000);
  // The reference takes its own share of the prompt, in file order, cut where it must be.
  const reference =
    options.reference === undefined
      ? undefined
      : renderFiles(
          selectRelevantFiles('', options.reference, options.referenceBudgetChars ?? 20_000).shown,
        );
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
          label: `judge ${reference === undefined ? 'score' : 'reference score'} ${sample}${several ? ` part ${index + 1}/${parts.length}` : ''}`,
          expect: 'JSON: {"critiques": [...], "score": 1 to 5}',
          messages: [
            {
              role: 'user',
              content: loadPrompt(
                reference === undefined ? 'eval-judge-score' : 'eval-judge-score-reference',
                {
                  paper: options.paper,
                  ...(reference === undefined ? {} : { reference }),
                  part: several ? ` (part ${index + 1} of ${parts.length})` : '',
                  part_note: several ? '; the other parts are judged separately' : '',
                  files: renderFiles(part),
                },
              ),
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
      node: `${reference === undefined ? 'score' : 'reference score'} sample ${sample}`,
      score,
      reason: `${parts.length} part(s)`,
    });
  }
  return {
    score: samples.reduce((sum, value) => sum + value, 0) / Math.max(1, samples.length),
    samples,
    parts: parts.length,
    critiques,
  };
}
