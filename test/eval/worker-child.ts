// Started by queue.test.ts: one `codify worker` process (the library call behind it) with a
// scripted model that answers slowly, so a run is still going when the test kills it.
import { defaultConfig } from '../../src/config/default-config.js';
import { startWorker } from '../../src/eval/dispatch/run-worker.js';
import { agentAnswer } from './agent-script.js';
import { scriptedAnswerer } from './eval-fixture.js';

const [url, workDir] = process.argv.slice(2);
if (url === undefined) throw new Error('usage: worker-child REDIS_URL [WORK_DIR]');
const stop = new AbortController();
const worker = startWorker({
  url,
  signal: stop.signal,
  baseConfig: defaultConfig(),
  answerers: () =>
    scriptedAnswerer(async (request) => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      return agentAnswer(request);
    }),
  // Short, so a killed worker's run is handed on within seconds.
  lockDurationMs: 2000,
  stalledIntervalMs: 1000,
  // Where runs whose folders go back through the queue are made.
  ...(workDir === undefined ? {} : { workDir }),
});
// As `codify worker`: the runs under way stop, the worker closes, and the process ends by itself.
process.on('SIGTERM', () => {
  stop.abort(new Error('interrupted by SIGTERM'));
  void worker.close();
});
