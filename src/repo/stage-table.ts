import type { CodifyEvent, EventOf } from '../runs/events.js';
import type { StageRecord } from '../runs/stages.js';

/** A stage's model usage as the report's table shows it. */
export interface StageUsage {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  /** Dollars; null once any call had an unknown price. */
  costUsd: number | null;
}

export type StageRow = { stage: string; durationMs: number; commit?: string } & StageUsage;

const emptyUsage = (): StageUsage => ({
  calls: 0,
  inputTokens: 0,
  outputTokens: 0,
  cachedInputTokens: 0,
  costUsd: 0,
});

export function sumStages(stages: StageUsage[]): StageUsage {
  return stages.reduce<StageUsage>(
    (total, stage) => ({
      calls: total.calls + stage.calls,
      inputTokens: total.inputTokens + stage.inputTokens,
      outputTokens: total.outputTokens + stage.outputTokens,
      cachedInputTokens: total.cachedInputTokens + stage.cachedInputTokens,
      costUsd:
        total.costUsd === null || stage.costUsd === null ? null : total.costUsd + stage.costUsd,
    }),
    emptyUsage(),
  );
}

/** The row for model calls made while no stage ran, shown only when there were some. */
export const outsideStages = '(outside stages)';

function addCall(usage: StageUsage, event: EventOf<'llm-end'>): void {
  usage.calls += 1;
  usage.inputTokens += event.usage.inputTokens;
  usage.outputTokens += event.usage.outputTokens;
  usage.cachedInputTokens += event.usage.cachedInputTokens;
  usage.costUsd =
    usage.costUsd === null || event.costUsd === null ? null : usage.costUsd + event.costUsd;
}

/**
 * What each stage spent over the run's whole event log, every process of a resumed run
 * included: each llm-end goes to the stage that was running (the repair calls of verify
 * among them; for the stage a kill cut short, up to the process's end), each stage's time
 * is the sum of its runs. Calls made while no stage ran go to `outsideStages`. The same
 * llm-end events make the run's totals (run-end), so the two figures are one accounting.
 */
export function stageSpending(
  events: readonly CodifyEvent[],
): Map<string, { usage: StageUsage; durationMs: number }> {
  const spent = new Map<string, { usage: StageUsage; durationMs: number }>();
  const entry = (stage: string) => {
    const found = spent.get(stage) ?? { usage: emptyUsage(), durationMs: 0 };
    spent.set(stage, found);
    return found;
  };
  let open: string | undefined;
  for (const event of events) {
    if (event.type === 'stage-start') open = event.stage;
    else if (event.type === 'run-start') open = undefined;
    else if (event.type === 'stage-end') {
      if (event.reused !== true) entry(event.stage).durationMs += event.durationMs ?? 0;
      open = undefined;
    } else if (event.type === 'llm-end') addCall(entry(open ?? outsideStages).usage, event);
  }
  return spent;
}

/**
 * The report's stage table from the run's event log: the stages of this process in their
 * order, then any other stage the log holds, then the calls made outside stages; each with
 * its calls, tokens, cost, time and commit. The rows add up to the run's totals.
 */
export function stageRows(
  records: readonly StageRecord[],
  events: readonly CodifyEvent[],
  commits: ReadonlyMap<string, string | undefined>,
): StageRow[] {
  const spent = stageSpending(events);
  const names = [
    ...new Set([
      ...records.map((record) => record.stage),
      ...[...spent.keys()].filter((stage) => stage !== outsideStages),
    ]),
    ...(spent.has(outsideStages) ? [outsideStages] : []),
  ];
  return names.map((stage) => {
    const found = spent.get(stage);
    const commit = commits.get(stage);
    return {
      stage,
      durationMs: found?.durationMs ?? 0,
      ...(commit === undefined ? {} : { commit }),
      ...(found?.usage ?? emptyUsage()),
    };
  });
}
