import type { TaskSeed } from './seeds/task-seed.js';

export interface TaskMetric {
  name: string;
  /** A regular expression with one capture group, applied to the script's output. */
  pattern: string;
  goal: 'max' | 'min';
  /**
   * How the pattern reads the value, in words, for a pattern too long to read (explore's
   * generated ones); models are shown this instead of the pattern. task.json has none.
   */
  inWords?: string;
}

export interface TaskFiles {
  methodology: string;
  starterCode: string;
  dataset?: string;
  pseudocode?: string;
  starterPerformance?: string;
  supplementary?: string;
  subparts: { name: string; content: string }[];
  problemStatement?: string;
}

/** A loaded, validated task folder. */
export interface Task {
  /** Absolute path of the task folder. */
  dir: string;
  name: string;
  format: 'codify' | 'mlagentbench';
  entrypoint: string;
  output: string;
  args: string[];
  timeoutS: number;
  metric?: TaskMetric;
  pythonRequires: string[];
  network: boolean;
  /** How the script takes its random seed, when task.json declares it. */
  seed?: TaskSeed;
  files: TaskFiles;
  /** Paths (relative to the task folder) copied into the workspace as read-only inputs. */
  inputFiles: string[];
  /**
   * The folder `inputFiles`, `entrypoint` and `output` are relative to, which the workspace
   * mirrors. Absent or equal to `dir` for codify tasks; `<dir>/env` for MLAgentBench tasks
   * (their scripts run inside env/). Read it as `task.inputDir ?? task.dir`.
   */
  inputDir?: string;
}
