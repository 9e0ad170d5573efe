export { loadTask, detectFormat } from './load-task.js';
export { TaskError } from './task-error.js';
export { problemStatement, commandLine } from './problem-statement.js';
export { parseMetric, type MetricReading } from './parse-metric.js';
export {
  measureStarter,
  needsStarterMeasurement,
  type MeasureStarterOptions,
  type StarterMeasurement,
} from './measure-starter.js';
export {
  checkTask,
  checkExitCodes,
  type CheckTaskOptions,
  type StarterRun,
  type TaskCheckReport,
} from './check-task.js';
export {
  inspectTaskFolder,
  type FolderInspection,
  type InspectedFile,
} from './inspect-task-folder.js';
export { taskSettingsSchema, defaultTimeoutS, type TaskSettings } from './task-settings.js';
export { taskFileNames, mlAgentBenchNames, defaultOutput } from './task-file-names.js';
export type * from './types.js';
