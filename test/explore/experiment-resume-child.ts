// Started by experiment-resume.test.ts, then killed with SIGKILL in its second experiment.
import { writeFileSync } from 'node:fs';
import { runExplore } from '../../src/explore/run-explore.js';
import { experimentActions } from './experiment-actions.js';
import { exploreModels, exploreSettings } from './experiment-resume-script.js';

const [root, marker] = process.argv.slice(2);
if (root === undefined || marker === undefined) throw new Error('usage: child ROOT MARKER');
const { models } = exploreModels((idea) => {
  if (idea !== 'Feature noise') return;
  writeFileSync(marker, 'in step 2 of the second experiment\n');
  // Holds here (its step 1 checkpointed) until the test kills the process.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 120_000);
});
await runExplore({
  settings: exploreSettings(root),
  models,
  experimentActions,
  host: { runsRoot: `${root}/runs`, argv: ['explore'] },
});
