import type { CodifyConfig } from '../../config/codify-config.js';
import type { Suite } from '../suite/suite.js';

/** The judge's spec: the suite's, else the command's judge role; undefined when none is set. */
export function judgeSpec(suite: Suite, config: CodifyConfig): string | undefined {
  return suite.judge.model ?? config.roles.judge.models[0];
}

/** A suite needs a judge when it scores paper runs or grades a paper's rubric. */
export const needsJudge = (suite: Suite): boolean =>
  (suite.judge.enabled && suite.items.some((item) => item.kind === 'paper')) ||
  suite.items.some((item) => item.kind === 'paper' && item.rubric !== undefined);
