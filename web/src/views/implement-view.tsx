import { useMemo, useState } from 'react';
import type { ImplementResult } from '../../../src/agent/final-result.js';
import type { RunEdits, RunTraces } from '../../../src/server/api-types.js';
import { Budgets, type BudgetLimits } from '../components/budgets.js';
import { DiffView, type DiffLayout } from '../components/diff-view.js';
import { FileBrowser, FileContent } from '../components/file-browser.js';
import { MetricChart } from '../components/metric-chart.js';
import { ModelCalls } from '../components/model-calls.js';
import { Tabs } from '../components/tabs.js';
import { TraceView } from '../components/trace-view.js';
import { apiPaths } from '../model/api-paths.js';
import { fullEditReason } from '../model/edit-reason.js';
import { modelCallsOf } from '../model/model-calls.js';
import { currentPlan, metricSeries, starterMetric } from '../model/run-steps.js';
import { relativeToRun } from '../model/run-stages.js';
import { stepsUnderStatus } from '../model/step-status.js';
import { useFetched } from '../use-json.js';
import { useRunSteps } from '../use-run-steps.js';
import type { RunViewProps } from './run-view-props.js';
import { StepTimeline } from './step-timeline.js';

/** An implement run: steps, plan and log, edits, executions with traces, model calls, files. */
export function ImplementView({ runId, events, tab, filesRevision, status }: RunViewProps) {
  const active = tab ?? 'timeline';
  const built = useRunSteps(events);
  const steps = useMemo(() => stepsUnderStatus(built, status), [built, status]);
  const calls = useMemo(() => modelCallsOf(events), [events]);
  const executions = events.filter((event) => event.type === 'execution-end');
  const { data: settings } = useFetched<{ agent?: BudgetLimits }>(
    apiPaths.file(runId, 'implement.json'),
    0,
  );
  return (
    <>
      <Tabs
        runId={runId}
        active={active}
        tabs={[
          { id: 'timeline', label: 'Timeline', note: String(steps.length) },
          { id: 'plan', label: 'Plan & log' },
          { id: 'edits', label: 'Edits' },
          { id: 'executions', label: 'Executions & traces', note: String(executions.length) },
          { id: 'calls', label: 'Model calls', note: String(calls.length) },
          { id: 'files', label: 'Files' },
        ]}
      />
      {active === 'timeline' ? (
        <div className="with-sidebar">
          <StepTimeline steps={steps} calls={calls} />
          <aside className="sidebar">
            <h2>Budgets</h2>
            <Budgets events={events} limits={settings?.agent} />
            <h2>Metric</h2>
            <Metric runId={runId} events={events} filesRevision={filesRevision} />
          </aside>
        </div>
      ) : null}
      {active === 'plan' ? (
        <PlanAndLog runId={runId} events={events} filesRevision={filesRevision} />
      ) : null}
      {active === 'edits' ? (
        <Edits runId={runId} events={events} filesRevision={filesRevision} />
      ) : null}
      {active === 'executions' ? (
        <Executions runId={runId} events={events} filesRevision={filesRevision} />
      ) : null}
      {active === 'calls' ? <ModelCalls runId={runId} calls={calls} /> : null}
      {active === 'files' ? <FileBrowser runId={runId} reloadKey={filesRevision} /> : null}
    </>
  );
}

type Part = Pick<RunViewProps, 'runId' | 'events' | 'filesRevision'>;

function Metric({ runId, events, filesRevision }: Part) {
  const { data: result } = useFetched<ImplementResult>(
    events.some((event) => event.type === 'run-end')
      ? apiPaths.file(runId, 'result.json')
      : undefined,
    filesRevision,
  );
  const starter = starterMetric(events);
  const name = result?.metric?.name ?? starter?.name ?? 'metric';
  return (
    <>
      <MetricChart
        name={name}
        points={metricSeries(events)}
        starter={result?.metric?.starter ?? starter?.value}
        goal={result?.metric?.goal}
      />
      {result?.metric !== null && result?.metric !== undefined ? (
        <p className="metric-result">
          final {result.metric.name}: <strong>{result.metric.value ?? 'not printed'}</strong>
          {result.metric.starter !== null ? ` vs the starter's ${result.metric.starter}` : ''}
          {result.metric.improved === true
            ? ' (improved)'
            : result.metric.improved === false
              ? ' (not improved)'
              : ''}
          ; {result.linesEdited.added} lines added, {result.linesEdited.removed} removed
        </p>
      ) : null}
    </>
  );
}

function PlanAndLog({ runId, events, filesRevision }: Part) {
  const plan = currentPlan(events);
  const { data: log, error } = useFetched<string>(
    apiPaths.file(runId, 'research_log.md'),
    filesRevision,
    'text',
  );
  return (
    <div className="two-columns">
      <section>
        <h2>Current research plan and status</h2>
        {plan !== undefined ? (
          <pre className="plan">{plan}</pre>
        ) : (
          <p className="muted">No plan yet.</p>
        )}
      </section>
      <section>
        <h2>Research log</h2>
        {log !== undefined ? (
          <pre className="research-log">{log}</pre>
        ) : (
          <p className="muted">{error ?? 'No log yet.'}</p>
        )}
      </section>
    </div>
  );
}

function Edits({ runId, events, filesRevision }: Part) {
  const { data, error } = useFetched<RunEdits>(apiPaths.edits(runId), filesRevision);
  const [layout, setLayout] = useState<DiffLayout>('unified');
  const edits = (data?.edits ?? []).filter((edit) => edit.version > 0);
  return (
    <section className="edits">
      <div className="toolbar">
        <span>
          {edits.length} saved edit{edits.length === 1 ? '' : 's'}
        </span>
        <label>
          <input
            type="radio"
            checked={layout === 'unified'}
            onChange={() => setLayout('unified')}
          />{' '}
          unified
        </label>
        <label>
          <input type="radio" checked={layout === 'split'} onChange={() => setLayout('split')} />{' '}
          side by side
        </label>
      </div>
      {error !== undefined ? <p className="error">{error}</p> : null}
      {(data?.skipped ?? []).map((skipped) => (
        <p key={`${skipped.path}-${skipped.version}`} className="warning skipped-version">
          {skipped.path} version {skipped.version} is not shown: {skipped.reason}
        </p>
      ))}
      {edits.map((edit) => (
        <article
          key={`${edit.path}-${edit.version}`}
          className={edit.undone ? 'edit undone' : 'edit'}
        >
          <h3>
            {edit.path} <span className="muted">version {edit.version}</span>{' '}
            <span className="added">+{edit.added}</span>{' '}
            <span className="removed">-{edit.removed}</span>
            {edit.undone ? <span className="muted"> (undone)</span> : null}
          </h3>
          <EditReason reason={edit.reason} events={events} />
          {edit.from !== undefined && edit.diff === '' ? (
            <p className="muted">the same content as {edit.from}</p>
          ) : edit.from !== undefined ? (
            <>
              <p className="muted">made from {edit.from}: the diff is against it</p>
              <DiffView diff={edit.diff} path={edit.path} layout={layout} />
            </>
          ) : edit.removed === 0 && edit.version === 1 ? (
            // A file's first version (a copy or a new file) is all additions: folded away.
            <details>
              <summary>new file, {edit.added} lines</summary>
              <DiffView diff={edit.diff} path={edit.path} layout={layout} />
            </details>
          ) : (
            <DiffView diff={edit.diff} path={edit.path} layout={layout} />
          )}
        </article>
      ))}
      {data !== undefined && edits.length === 0 ? <p className="muted">No edits yet.</p> : null}
    </section>
  );
}

/** An edit's reason; one the store cut short opens to the whole instruction from the log. */
function EditReason({ reason, events }: { reason: string; events: Part['events'] }) {
  const full = useMemo(() => fullEditReason(reason, events), [reason, events]);
  if (full === undefined) return <p className="edit-reason">{reason}</p>;
  return (
    <details className="edit-reason">
      <summary>{reason.slice(0, reason.indexOf('\n[...'))} … (show all)</summary>
      <pre className="edit-reason-full">{full}</pre>
    </details>
  );
}

function Executions({ runId, events, filesRevision }: Part) {
  const { data: traces } = useFetched<RunTraces>(apiPaths.traces(runId), filesRevision);
  const executions = events.flatMap((event) => (event.type === 'execution-end' ? [event] : []));
  const [picked, setPicked] = useState<number | undefined>(undefined);
  const current = executions.find((event) => event.seq === picked) ?? executions.at(-1);
  const outputPath =
    current?.outputPath === undefined ? undefined : relativeToRun(current.outputPath, runId);
  return (
    <div className="executions">
      <section>
        <h2>Executions</h2>
        <table className="execution-list">
          <thead>
            <tr>
              <th>script</th>
              <th>exit</th>
              <th className="number">time</th>
              <th className="number">metric</th>
            </tr>
          </thead>
          <tbody>
            {executions.map((event) => (
              <tr
                key={event.seq}
                className={event === current ? 'active' : undefined}
                onClick={() => setPicked(event.seq)}
              >
                <td>
                  {event.script} {event.args.join(' ')}
                </td>
                <td className={event.exitCode === 0 ? 'ok' : 'error'}>
                  {event.timedOut ? 'timed out' : (event.exitCode ?? event.signal ?? '?')}
                </td>
                <td className="number">{(event.durationMs / 1000).toFixed(1)} s</td>
                <td className="number">{event.metric ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {outputPath !== undefined ? (
          <FileContent runId={runId} path={outputPath} bytes={0} reloadKey={filesRevision} />
        ) : executions.length === 0 ? (
          <p className="muted">No script has run yet.</p>
        ) : null}
      </section>
      <section>
        <h2>Line traces</h2>
        <p className="muted">
          The last run of each script: how often each line ran; lines that never ran are marked.
        </p>
        {(traces?.traces ?? []).map((trace) => (
          <TraceView key={trace.path} trace={trace} />
        ))}
        {traces !== undefined && traces.traces.length === 0 ? (
          <p className="muted">No trace yet.</p>
        ) : null}
      </section>
    </div>
  );
}
