import { rmSync } from 'node:fs';
import { RunStopped } from '../errors/run-stopped.js';
import type { FeedbackAnswer, FeedbackChannel, FeedbackRequest } from '../runs/feedback.js';
import { feedbackText } from '../runs/feedback.js';
import { answerFile, recordedFeedback } from '../runs/feedback-folder.js';
import type { Run } from '../runs/run.js';
import type { ExploredIdea } from './exploration.js';

/**
 * The researcher stopped the exploration at a gate: a stop like Ctrl-C, so the run ends
 * `stopped` with what it finished, and a resume asks again from that gate on.
 */
export class ExplorationStopped extends RunStopped {
  constructor(readonly gate: string) {
    super(`stopped by the researcher at ${gate}`);
  }
}

/** Asks at a gate through the channel (kept in the run folder); no channel, no gate. */
async function ask(
  run: Run,
  channel: FeedbackChannel | undefined,
  request: FeedbackRequest,
): Promise<FeedbackAnswer | undefined> {
  if (channel === undefined) return undefined;
  run.emit({
    type: 'feedback-request',
    id: request.id,
    kind: request.kind,
    title: request.title,
    waiting: true,
  });
  const answer = await recordedFeedback(run.dir, channel).ask(request);
  run.emit({ type: 'log', level: 'info', message: `${request.id}: ${answer.decision}` });
  if (answer.decision === 'stop') {
    // The log keeps the decision; without the answer file a resume asks at this gate again
    // instead of stopping there once more.
    rmSync(answerFile(run.dir, request.id), { force: true });
    throw new ExplorationStopped(request.id);
  }
  return answer;
}

/**
 * Gate 1: the researcher approves or edits the problem analysis the ideas are built on; a
 * comment is added to it. Returns the analysis text the next prompts get.
 */
export async function approveAnalysis(
  run: Run,
  channel: FeedbackChannel | undefined,
  analysisText: string,
): Promise<string> {
  const request: FeedbackRequest = {
    id: 'problem-analysis',
    kind: 'edit',
    title: 'the problem analysis the ideas will address',
    body: analysisText,
    draft: analysisText,
  };
  const answer = await ask(run, channel, request);
  if (answer === undefined || answer.decision === 'approve') return analysisText;
  if (answer.decision === 'edit') return answer.text;
  const text = feedbackText(request, answer);
  return text === undefined
    ? analysisText
    : `${analysisText}\n\n### The researcher's comment\n${text}`;
}

/** Gate 2: the researcher picks the ideas to run (default: what `--run` chose). */
export async function pickExperiments(
  run: Run,
  channel: FeedbackChannel | undefined,
  ranked: readonly ExploredIdea[],
  chosen: readonly ExploredIdea[],
): Promise<string | undefined> {
  const answer = await ask(run, channel, {
    id: 'experiments',
    kind: 'pick',
    title: 'the ideas to run as experiments',
    body: `Proposed (from --run): ${chosen.map((idea) => idea.id).join(', ')}`,
    options: ranked.map((idea) => ({
      id: idea.id,
      label: `${idea.card.title} (judge ${idea.score.toFixed(2)})`,
    })),
    proposed: chosen.map((idea) => idea.id),
  });
  return answer?.decision === 'pick' ? answer.picked.join(',') : undefined;
}

/** The budget line of an experiment's gate; an edit may change its number of steps. */
const budgetLine = /^Budget: at most (\d+) agent steps\b.*$/m;

/** What the researcher approved for one experiment: its methodology and its step budget. */
export interface ApprovedExperiment {
  methodology: string;
  maxSteps: number;
}

/**
 * Gate 3, before each experiment: the researcher approves its plan (the methodology the
 * implement run gets) and its budget, edits them (the budget line's number of steps is read
 * back from the edited text), comments (added to the methodology) or stops.
 */
export async function approveExperiment(
  run: Run,
  channel: FeedbackChannel | undefined,
  idea: ExploredIdea,
  planned: ApprovedExperiment & { compute: string },
): Promise<ApprovedExperiment> {
  const budget = `Budget: at most ${planned.maxSteps} agent steps (${planned.compute})`;
  const request: FeedbackRequest = {
    id: `experiment-${idea.id}`,
    kind: 'edit',
    title: `experiment ${idea.id} "${idea.card.title}": its plan and budget`,
    body: `${planned.methodology.trimEnd()}\n\n${budget}\n`,
    draft: `${planned.methodology.trimEnd()}\n\n${budget}\n`,
  };
  const answer = await ask(run, channel, request);
  const kept = { methodology: planned.methodology, maxSteps: planned.maxSteps };
  if (answer === undefined || answer.decision === 'approve') return kept;
  if (answer.decision === 'edit') {
    const steps = budgetLine.exec(answer.text);
    return {
      methodology: `${answer.text.replace(budgetLine, '').trimEnd()}\n`,
      maxSteps: steps?.[1] === undefined ? planned.maxSteps : Math.max(1, Number(steps[1])),
    };
  }
  const text = feedbackText(request, answer);
  return text === undefined
    ? kept
    : {
        ...kept,
        methodology: `${planned.methodology.trimEnd()}\n\n## The researcher's comment\n${text}\n`,
      };
}

/**
 * The channel as one experiment's implement run sees it: its requests keep their place in
 * that run's folder, and reach the exploration's channel named after the idea, so the
 * steps of several experiments never share a request id there.
 */
export function experimentChannel(ideaId: string, channel: FeedbackChannel): FeedbackChannel {
  return {
    ask: (request) =>
      channel.ask({
        ...request,
        id: `${ideaId}-${request.id}`,
        title: `experiment ${ideaId}, ${request.title}`,
      }),
  };
}
