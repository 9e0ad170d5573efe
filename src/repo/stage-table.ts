import type { CodifyEvent, StageUsage as RunStageUsage } from '../runs/events.js';
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

function fromRun(usage: RunStageUsage): StageUsage {
  return {
    calls: usage.llmCalls,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cachedInputTokens: usage.cachedInputTokens,
    costUsd: usage.costUsd,
  };
}

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

/**
 * What earlier processes of a resumed run spent in each stage: every llm-end between a
 * stage's start and its end (or the process's end, for the stage a kill cut short), and
 * the durations of the stages they finished. A call they completed is answered from the
 * log on resume without a new llm-end, so it is counted here, once.
 */
export function earlierStageSpending(
  earlier: readonly CodifyEvent[],
): Map<string, { usage: StageUsage; durationMs: number }> {
  const spent = new Map<string, { usage: StageUsage; durationMs: number }>();
  const entry = (stage: string) => {
    const found = spent.get(stage) ?? { usage: emptyUsage(), durationMs: 0 };
    spent.set(stage, found);
    return found;
  };
  let open: string | undefined;
  for (const event of earlier) {
    if (event.type === 'stage-start') open = event.stage;
    else if (event.type === 'run-start') open = undefined;
    else if (event.type === 'stage-end') {
      if (event.reused !== true) entry(event.stage).durationMs += event.durationMs ?? 0;
      open = undefined;
    } else if (event.type === 'llm-end' && open !== undefined) {
      const usage = entry(open).usage;
      usage.calls += 1;
      usage.inputTokens += event.usage.inputTokens;
      usage.outputTokens += event.usage.outputTokens;
      usage.cachedInputTokens += event.usage.cachedInputTokens;
      usage.costUsd =
        usage.costUsd === null || event.costUsd === null ? null : usage.costUsd + event.costUsd;
    }
  }
  return spent;
}

/**
 * The report's stage table: each stage of the run in order, with every model call made
 * while it ran (repair calls of verify included) in this process and in the ones before a
 * resume, its time and its commit.
 */
export function stageRows(
  records: readonly StageRecord[],
  earlier: readonly CodifyEvent[],
  commits: ReadonlyMap<string, string | undefined>,
): StageRow[] {
  const before = earlierStageSpending(earlier);
  return records.map((record) => {
    const spent = before.get(record.stage);
    const usage = sumStages([fromRun(record.usage), ...(spent === undefined ? [] : [spent.usage])]);
    const commit = commits.get(record.stage);
    return {
      stage: record.stage,
      durationMs: record.durationMs + (spent?.durationMs ?? 0),
      ...(commit === undefined ? {} : { commit }),
      ...usage,
    };
  });
}
