import { join } from 'node:path';
import type { StrategyName } from '../../agent/strategies/strategy.js';
import {
  type exploreStrategy,
  itemStrategies,
  type paperStrategy,
  type Suite,
  type SuiteItem,
  type SuiteModel,
} from './suite.js';

/** One combination of a suite: an item, a strategy, a model and a trial. */
export interface PlannedRun {
  /** `ITEM/STRATEGY/MODEL/trial-N`: the run's identity across invocations. */
  key: string;
  item: SuiteItem;
  strategy: StrategyName | typeof paperStrategy | typeof exploreStrategy;
  model: SuiteModel;
  trial: number;
  /** The runs root of this combination: its run folder (and any interrupted one) lives here. */
  root: string;
  /** The judge's grades of this run (scores, rubric), kept beside the runs. */
  judgeFile: string;
}

/** Every combination, items first so one item's runs sit together in the order of the file. */
export function planRuns(suite: Suite, evalDir: string): PlannedRun[] {
  const planned: PlannedRun[] = [];
  for (const item of suite.items) {
    const strategies = itemStrategies(item);
    for (const strategy of strategies) {
      for (const model of suite.models) {
        for (let trial = 1; trial <= suite.trials; trial += 1) {
          const key = `${item.name}/${strategy}/${model.name}/trial-${trial}`;
          planned.push({
            key,
            item,
            strategy,
            model,
            trial,
            root: join(evalDir, 'runs', key),
            judgeFile: join(evalDir, 'judge', `${key}.json`),
          });
        }
      }
    }
  }
  return planned;
}
