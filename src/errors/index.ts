export {
  CodifyError,
  EnvironmentError,
  InputError,
  UsageError,
  errorMessage,
  exitCodeOf,
} from './codify-error.js';
export { exitCodes, type ExitCode, type ExitCodeName } from './exit-codes.js';
export { RunStopped, throwIfStopped } from './run-stopped.js';
