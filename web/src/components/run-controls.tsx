import { useState } from 'react';
import type { RunMode } from '../../../src/runs/events.js';
import type { RunListStatus } from '../../../src/runs/list-runs.js';
import { apiPaths } from '../model/api-paths.js';
import { postJson } from '../post-json.js';

const resumable = new Set<string>(['killed', 'stopped', 'failed', 'budget-exhausted']);

/** Stop a live run; resume an implement or paper run that ended without finishing. */
export function RunControls({
  runId,
  mode,
  status,
  onChange,
}: {
  runId: string;
  mode: RunMode | 'unknown';
  status: RunListStatus | 'connecting';
  onChange: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const act = (path: string) => {
    setBusy(true);
    setError(undefined);
    postJson(path, {})
      .then(onChange)
      .catch((reason: unknown) =>
        setError(reason instanceof Error ? reason.message : String(reason)),
      )
      .finally(() => setBusy(false));
  };
  return (
    <span className="run-controls">
      {status === 'running' && !confirming ? (
        <button type="button" disabled={busy} onClick={() => setConfirming(true)}>
          Stop
        </button>
      ) : null}
      {status === 'running' && confirming ? (
        // Stopping ends the process (a step in flight is cancelled): asked once more.
        <span className="confirm-stop" role="group" aria-label="confirm stop">
          Stop this run?{' '}
          <button
            type="button"
            className="danger"
            disabled={busy}
            onClick={() => {
              setConfirming(false);
              act(apiPaths.stop(runId));
            }}
          >
            Yes, stop it
          </button>{' '}
          <button type="button" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </span>
      ) : null}
      {(mode === 'implement' || mode === 'paper' || mode === 'explore') && resumable.has(status) ? (
        <button type="button" disabled={busy} onClick={() => act(apiPaths.resume(runId))}>
          Resume
        </button>
      ) : null}
      {error !== undefined ? <span className="error">{error}</span> : null}
    </span>
  );
}
