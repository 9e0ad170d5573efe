import { useEffect, useMemo, useState } from 'react';
import type { CodifyEvent, EventOf, RunStatus } from '../../../src/runs/events.js';
import type { RunListEntry } from '../../../src/server/api-types.js';
import { FeedbackRequests } from '../components/feedback-requests.js';
import { RunControls } from '../components/run-controls.js';
import { StatusBadge } from '../components/status-badge.js';
import { apiPaths } from '../model/api-paths.js';
import { followsLog, runTotals, totalsFacts } from '../model/run-header.js';
import { useFetched } from '../use-json.js';
import { useRunEvents } from '../use-run-events.js';
import { viewFor } from '../views/view-registry.js';

const fileEvents = new Set(['step-end', 'artifact-write', 'execution-end', 'run-end', 'stage-end']);

/** One run: a header with its status and totals, then the view of its mode, kept live. */
export function RunPage({ runId, tab }: { runId: string; tab?: string }) {
  const { events, connected } = useRunEvents(runId);
  const ended = useMemo(() => lastEnd(events), [events]);
  // Liveness (running or killed) comes from the server, which can check the writing process;
  // a killed process writes no event, so it is asked again every few seconds until the end.
  // Only the summary is asked for: the events come once, over the stream.
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (ended !== undefined) return;
    const timer = window.setInterval(() => setTick((value) => value + 1), 3000);
    return () => window.clearInterval(timer);
  }, [ended]);
  const { data: summary, error } = useFetched<RunListEntry>(
    apiPaths.summary(runId),
    `${ended?.seq ?? 0}-${tick}`,
  );
  const start = events.find((event): event is EventOf<'run-start'> => event.type === 'run-start');
  const totals = useMemo(() => runTotals(events), [events]);
  const filesRevision = useMemo(
    () => events.filter((event) => fileEvents.has(event.type)).length,
    [events],
  );
  const mode = start?.mode ?? summary?.mode ?? 'unknown';
  const status: RunStatus | 'running' | 'killed' | 'unreadable' | 'connecting' =
    ended?.status ?? summary?.status ?? 'connecting';
  const View = viewFor(mode);
  return (
    <section className="run-page" data-mode={mode}>
      <div className="run-header">
        <div>
          <h1>{start?.name ?? summary?.name ?? runId}</h1>
          <div className="run-id">
            {runId} · {mode}
            {start?.task !== undefined ? ` · ${start.task}` : ''}
          </div>
        </div>
        <div className="run-facts">
          <StatusBadge status={status} />
          <RunControls
            runId={runId}
            mode={mode}
            status={status}
            onChange={() => setTick((value) => value + 1)}
          />
          {totalsFacts(totals).map((fact) => (
            <span key={fact} className="total">
              {fact}
            </span>
          ))}
          {followsLog(status) ? (
            <span className={connected ? 'stream on' : 'stream off'} title="live event stream">
              {connected ? 'streaming' : 'reconnecting…'}
            </span>
          ) : null}
        </div>
      </div>
      {ended?.reason !== undefined ? <p className="run-reason">{ended.reason}</p> : null}
      {error !== undefined && events.length === 0 ? <p className="error">{error}</p> : null}
      <FeedbackRequests runId={runId} events={events} live={status === 'running'} />
      <View
        runId={runId}
        mode={mode}
        events={events}
        tab={tab}
        filesRevision={filesRevision}
        status={status}
      />
    </section>
  );
}

/** The run-end of the latest attempt (a resumed run starts again after its earlier end). */
function lastEnd(events: readonly CodifyEvent[]): EventOf<'run-end'> | undefined {
  for (let index = events.length - 1; index >= 0; index -= 1) {
    const event = events[index];
    if (event?.type === 'run-end') return event;
    if (event?.type === 'run-start') return undefined;
  }
  return undefined;
}
