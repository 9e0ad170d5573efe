// Started by evaluation.test.ts as a child process, then killed with SIGKILL mid-evaluation.
import { defaultConfig } from '../../src/config/default-config.js';
import { loadSuite } from '../../src/eval/suite/load-suite.js';
import { runEvaluation } from '../../src/eval/run-evaluation.js';
import { agentAnswer } from './agent-script.js';
import { scriptedAnswerer } from './eval-fixture.js';

const [suiteFile, evalDir] = process.argv.slice(2);
if (suiteFile === undefined || evalDir === undefined)
  throw new Error('usage: eval-child SUITE DIR');
// The hung answer holds no handle open; this keeps the process alive until it is killed.
const keepAlive = setInterval(() => undefined, 1000);
await runEvaluation({
  suite: loadSuite(suiteFile),
  evalDir,
  baseConfig: defaultConfig(),
  // Trial 2 never gets an answer for its second step: the test kills the evaluation there.
  answerers: (_spec, planned) =>
    scriptedAnswerer((request) =>
      planned.trial === 2 && request.label === 'step 2'
        ? new Promise<string>(() => undefined)
        : agentAnswer(request),
    ),
});
clearInterval(keepAlive);
