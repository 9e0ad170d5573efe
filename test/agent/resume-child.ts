// Started by resume.test.ts as a child process, then killed with SIGKILL mid-run.
import { runImplement } from '../../src/agent/implement.js';
import { resumeActions, resumePlanner } from './resume-script.js';
import { scriptedCaller } from './scripted-caller.js';

const [taskDir, runsRoot] = process.argv.slice(2);
if (taskDir === undefined || runsRoot === undefined)
  throw new Error('usage: resume-child TASK RUNS');
await runImplement({
  taskDir,
  runsRoot,
  models: scriptedCaller({ planner: (_request, step) => resumePlanner(step), delayMs: 150 }),
  sandbox: 'none',
  python: '/usr/bin/python3',
  actions: resumeActions(),
});
