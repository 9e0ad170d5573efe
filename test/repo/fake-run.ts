import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CodifyEvent } from '../../src/runs/events.js';
import { createRun, type Run } from '../../src/runs/run.js';

/** A real run in a fresh temporary folder that keeps every event; `remove` deletes it. */
export function fakeRun(): { run: Run; events: CodifyEvent[]; remove: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'codify-repo-'));
  const events: CodifyEvent[] = [];
  const run = createRun({
    root,
    mode: 'paper',
    name: 'test',
    argv: [],
    sinks: [(event) => events.push(event)],
  });
  return {
    events,
    remove: () => {
      if (!run.closed) run.close('completed');
      rmSync(root, { recursive: true, force: true });
    },
    run,
  };
}
