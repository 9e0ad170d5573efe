/** What every request handler of the web app's server is given: where runs are, the token, the app. */
export interface RequestContext {
  root: string;
  /** Where relative task and paper paths in a start request are resolved, and runs start. */
  workingDirectory: string;
  token: string;
  appDirectory: string;
  pollMs?: number;
}
