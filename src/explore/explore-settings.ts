import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { readRunSettings, runSettingsFile } from '../runs/run-settings.js';
import type { PaperReader } from '../reader/paper-reader.js';
import type { ExperimentSettings } from './experiments/run-experiments.js';
import { ExploreInputError } from './explore-input-error.js';
import type { LiteratureService } from './literature/services.js';

/** What an exploration was started with; saved in the run so a resume repeats it exactly. */
export interface ExploreSettings {
  paperPaths: string[];
  notesPath?: string;
  relatedPath?: string;
  ideas: number;
  reviewers: number;
  refineRounds: number;
  /** Minutes one experiment run may take. */
  budgetMinutes: number;
  gpu: boolean;
  paperMaxChars: number;
  /** `model`: the planner reads each PDF itself, inside the run (default `local`). */
  paperReader?: PaperReader;
  /** Works compared below which a novelty check says `unknown`, never `novel` (default 10). */
  noveltyMinWorks?: number;
  literature?: {
    service: LiteratureService;
    baseUrl?: string;
    cacheDir?: string;
    retries?: number;
    baseDelayMs?: number;
  };
  /** `--run` with `--code`: the chosen ideas become implement runs on the prototype code. */
  experiments?: ExperimentSettings;
}

/** Where explorations started before the one lifecycle kept their settings. */
const olderSettingsFile = 'explore-settings.json';

/** Whether a run folder holds an exploration's settings (so it can be resumed). */
export function hasExploreSettings(runDir: string): boolean {
  return existsSync(join(runDir, runSettingsFile)) || existsSync(join(runDir, olderSettingsFile));
}

/** The settings an exploration was started with: settings.json, or an older run's file. */
export function readExploreSettings(runDir: string): ExploreSettings {
  if (!existsSync(join(runDir, runSettingsFile)) && existsSync(join(runDir, olderSettingsFile))) {
    return JSON.parse(readFileSync(join(runDir, olderSettingsFile), 'utf8')) as ExploreSettings;
  }
  if (!hasExploreSettings(runDir)) {
    throw new ExploreInputError(
      `${runDir} is not an exploration (it has no ${runSettingsFile}); give an explore run`,
    );
  }
  return readRunSettings(runDir, 'explore') as ExploreSettings;
}

export const defaultLiteratureCache = () =>
  join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'codify', 'literature');

export function describeCompute(
  settings: Pick<ExploreSettings, 'budgetMinutes' | 'gpu' | 'experiments'>,
): string {
  const maxSeeds = settings.experiments?.maxSeeds;
  const seeds =
    maxSeeds === undefined
      ? ''
      : maxSeeds === 1
        ? '; each experiment runs one seed (the first its plan lists)'
        : `; each experiment runs at most ${maxSeeds} seeds (the first ${maxSeeds} its plan lists)`;
  // With a prototype, every experiment runs on its data (see the prototype's summary).
  const data =
    settings.experiments === undefined
      ? 'data must ship with a Python package or be generated (no downloads)'
      : "the experiments run on the prototype's data (no downloads)";
  return `${settings.gpu ? 'one GPU' : 'CPU only, no GPU'}; each experiment run at most ${settings.budgetMinutes} minutes${seeds}; ${data}`;
}
