import { InputError } from '../errors/codify-error.js';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SandboxLimits } from '../sandbox/types.js';
import type { AgentOptions } from './agent-options.js';
import type { StrategyName } from './strategies/strategy.js';

export const settingsFile = 'implement.json';

/** How an implement run was started; saved in the run so `codify resume` continues it the same way. */
export interface ImplementSettings {
  taskDir: string;
  strategy: StrategyName;
  sandbox: 'bubblewrap' | 'none';
  interpreter: string;
  gpu: boolean;
  limits: SandboxLimits;
  agent: AgentOptions;
  measureStarter: boolean;
  /** Go on to the agent when the starter fails or prints no metric (`--allow-broken-starter`). */
  allowBrokenStarter?: boolean;
  /** What codify measured the starter to achieve (starter_code_performance.txt it wrote). */
  measuredStarterPerformance?: string;
  /** Untraced runs of the starter and of the final script (`--repeats`); absent means 1. */
  repeats?: number;
  /** The starter's metric over its repeated runs, once measured (only with repeats > 1). */
  starterValues?: number[];
}

export async function saveSettings(runDir: string, settings: ImplementSettings): Promise<void> {
  await writeFile(join(runDir, settingsFile), `${JSON.stringify(settings, null, 2)}\n`, 'utf8');
}

export async function readSettings(runDir: string): Promise<ImplementSettings> {
  const path = join(runDir, settingsFile);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new InputError(
      `${path} is missing: ${runDir} is not a run of codify implement, so it cannot be resumed`,
    );
  }
  return JSON.parse(text) as ImplementSettings;
}
