import type { ActionDefinition } from '../../agent/actions/types.js';
import type { ModelCaller } from '../../llm/types.js';
import type { FeedbackChannel } from '../../runs/feedback.js';
import type { RunHost } from '../../runs/run-host.js';
import type { Run } from '../../runs/run.js';
import type { Stages } from '../../runs/stages.js';
import type { Sandbox } from '../../sandbox/types.js';
import type { SeedRun } from '../../tasks/seeds/run-seeds.js';
import type { Task } from '../../tasks/types.js';
import type { ExperimentSettings } from './run-experiments.js';

/** The prototype code run unchanged: what every experiment is compared with. */
export interface MeasuredBaseline {
  task: Task;
  interpreter: string;
  sandbox: Sandbox;
  /** Its whole output, where each idea's metric is confirmed before the idea runs. */
  output: string;
  outputPath: string;
  ran: boolean;
  exitCode: number | null;
  /** How long the unchanged prototype ran, for the prototype summary the ideas see. */
  durationMs?: number;
}

/** What every experiment of an exploration shares. */
export interface ExperimentContext {
  /** The exploration's run and stages; each experiment is a stage of it. */
  run: Run;
  stages: Stages;
  /** The exploration's host: the experiments' runs take its root, signal and person. */
  host: RunHost;
  settings: ExperimentSettings;
  models: (run: Run) => ModelCaller;
  /** The exploration's own caller, for the judge's verdicts on the hypotheses. */
  judge: ModelCaller;
  /** The baseline's seed runs, measured or in flight: each seed runs once per exploration. */
  baselineSeeds: Map<number, Promise<SeedRun>>;
  /** `experiments/` in the exploration's folder. */
  folder: string;
  baseline: MeasuredBaseline;
  /** The researcher, asked one request at a time however many experiments run. */
  channel?: FeedbackChannel;
  actions?: readonly ActionDefinition[];
  keywords?: readonly string[];
  compute?: string;
}
