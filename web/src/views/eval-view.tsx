import { useMemo } from 'react';
import { formatDuration } from '../../../src/cli/render/format-values.js';
import type { EvalSummary } from '../../../src/eval/collection/collect-evaluation.js';
import type { RunRecord } from '../../../src/eval/collection/run-record.js';
import type { Spread } from '../../../src/eval/collection/spread.js';
import { BarChart } from '../components/bar-chart.js';
import { FileBrowser } from '../components/file-browser.js';
import { ModelCalls } from '../components/model-calls.js';
import { Tabs } from '../components/tabs.js';
import { apiPaths } from '../model/api-paths.js';
import { modelCallsOf } from '../model/model-calls.js';
import { useFetched } from '../use-json.js';
import { runHref } from '../use-route.js';
import { EventTimeline } from './events-view.js';
import type { RunViewProps } from './run-view-props.js';

const categories = ['A', 'B', 'C', 'D'] as const;

/**
 * An evaluation folder (`codify eval`): the tables of report.json (implement groups with
 * their categories against the starter's noise, papers with verify, judge and rubric scores,
 * strategies compared), drawn as charts too, and every run linked to its own page. Fields a
 * later report adds are passed over; the ones shown may be missing.
 */
export function EvalView({ runId, events, tab, filesRevision }: RunViewProps) {
  const active = tab ?? 'report';
  const calls = useMemo(() => modelCallsOf(events), [events]);
  const reported = events.some(
    (event) => event.type === 'artifact-write' || event.type === 'run-end',
  );
  const { data: report, error } = useFetched<EvalSummary>(
    reported ? apiPaths.file(runId, 'report.json') : undefined,
    filesRevision,
  );
  return (
    <>
      <Tabs
        runId={runId}
        active={active}
        tabs={[
          { id: 'report', label: 'Report' },
          { id: 'runs', label: 'Runs', note: String(report?.runs?.length ?? 0) },
          { id: 'events', label: 'Timeline', note: String(events.length) },
          { id: 'calls', label: 'Judge calls', note: String(calls.length) },
          { id: 'files', label: 'Files' },
        ]}
      />
      {active === 'report' ? (
        report === undefined ? (
          <p className="muted">
            {error !== undefined
              ? `No report yet (${error}).`
              : 'No report yet: codify eval writes report.json when its runs are done.'}
          </p>
        ) : (
          <Report runId={runId} report={report} />
        )
      ) : null}
      {active === 'runs' ? (
        <RunsTable runId={runId} runs={report?.runs ?? []} report={report} />
      ) : null}
      {active === 'events' ? <EventTimeline events={events} /> : null}
      {active === 'calls' ? <ModelCalls runId={runId} calls={calls} /> : null}
      {active === 'files' ? <FileBrowser runId={runId} reloadKey={filesRevision} /> : null}
    </>
  );
}

function Report({ runId, report }: { runId: string; report: EvalSummary }) {
  const implement = report.implement ?? [];
  const papers = report.papers ?? [];
  const comparisons = report.comparisons ?? [];
  const totals = report.totals;
  return (
    <section className="eval-report">
      <p>
        Suite <b>{report.suite}</b>
        {totals !== undefined
          ? ` · ${totals.finished} of ${totals.runs} runs finished · ${totals.tokens.toLocaleString()} tokens · $${totals.costUsd.toFixed(4)} · ${formatDuration(totals.wallTimeMs)} of run time`
          : ''}
        {(report.missing ?? []).length > 0 ? (
          <span className="warning"> · unfinished: {report.missing.join(', ')}</span>
        ) : null}
        {(report.failed ?? []).length > 0 ? (
          <span className="warning"> · failed (in no category): {report.failed.join(', ')}</span>
        ) : null}
      </p>
      {implement.length > 0 ? (
        <>
          <h3>Implement tasks</h3>
          <div className="table-scroll">
            <table className="eval-table implement-groups">
              <thead>
                <tr>
                  <th>task</th>
                  <th>strategy</th>
                  <th>model</th>
                  {categories.map((category) => (
                    <th key={category}>{category}</th>
                  ))}
                  <th>metric</th>
                  <th>gain over the starter</th>
                  <th>starter noise margin</th>
                  <th>lines edited</th>
                  <th>time saving</th>
                  <th>runs</th>
                </tr>
              </thead>
              <tbody>
                {implement.map((group) => (
                  <tr key={`${group.item}-${group.strategy}-${group.model}`}>
                    <td>{group.item}</td>
                    <td>{group.strategy}</td>
                    <td>{group.model}</td>
                    {categories.map((category) => (
                      <td key={category} className="number">
                        {group.counts?.[category] ?? 0}
                      </td>
                    ))}
                    <td className="number">{spread(group.metric)}</td>
                    <td className="number">{spread(group.improvement)}</td>
                    <td className="number">{number(report.noise?.[group.item]?.margin)}</td>
                    <td className="number">{spread(group.linesEdited)}</td>
                    <td className="number">
                      {group.timeSaving === null || group.timeSaving === undefined
                        ? '–'
                        : `${(group.timeSaving * 100).toFixed(1)} %`}
                    </td>
                    <td>
                      <RunLinks runId={runId} report={report} runs={group.runs ?? []} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <BarChart
            title="Gain over the starter, mean per task, strategy and model"
            referenceLabel="the starter's noise margin"
            rows={implement.map((group) => ({
              label: `${group.item} · ${group.strategy} · ${group.model}`,
              value: group.improvement?.mean ?? null,
              reference: report.noise?.[group.item]?.margin ?? null,
              text: number(group.improvement?.mean),
            }))}
          />
        </>
      ) : null}
      {comparisons.length > 0 ? (
        <>
          <h3>Strategies and models compared</h3>
          <div className="table-scroll">
            <table className="eval-table comparisons">
              <thead>
                <tr>
                  <th>strategy</th>
                  <th>model</th>
                  <th>finished</th>
                  {categories.map((category) => (
                    <th key={category}>{category} %</th>
                  ))}
                  <th>cost per run</th>
                  <th>time per run</th>
                </tr>
              </thead>
              <tbody>
                {comparisons.map((row) => (
                  <tr key={`${row.strategy}-${row.model}`}>
                    <td>{row.strategy}</td>
                    <td>{row.model}</td>
                    <td className="number">{row.finished}</td>
                    {categories.map((category) => (
                      <td key={category} className="number">
                        {number(row.percent?.[category])}
                      </td>
                    ))}
                    <td className="number">
                      {row.costUsd?.mean === null || row.costUsd?.mean === undefined
                        ? '–'
                        : `$${row.costUsd.mean.toFixed(4)}`}
                    </td>
                    <td className="number">
                      {row.wallTimeMs?.mean === null || row.wallTimeMs?.mean === undefined
                        ? '–'
                        : formatDuration(row.wallTimeMs.mean)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <BarChart
            title="Runs in category A (improved beyond the noise), percent"
            max={100}
            rows={comparisons.map((row) => ({
              label: `${row.strategy} · ${row.model}`,
              value: row.percent?.A ?? null,
              text: `${number(row.percent?.A)} %`,
            }))}
          />
        </>
      ) : null}
      {papers.length > 0 ? (
        <>
          <h3>Papers</h3>
          <div className="table-scroll">
            <table className="eval-table paper-groups">
              <thead>
                <tr>
                  <th>paper</th>
                  <th>model</th>
                  <th>ran as generated</th>
                  <th>ran after repair</th>
                  <th>did not run</th>
                  <th>judge (1–5)</th>
                  <th>judge with reference</th>
                  <th>rubric (0–1)</th>
                  <th>lines</th>
                  <th>repair share</th>
                  <th>runs</th>
                </tr>
              </thead>
              <tbody>
                {papers.map((group) => (
                  <tr key={`${group.item}-${group.model}`}>
                    <td>{group.item}</td>
                    <td>{group.model}</td>
                    <td className="number">{group.verify?.['ran as generated'] ?? 0}</td>
                    <td className="number">{group.verify?.['ran after repair'] ?? 0}</td>
                    <td className="number">{group.verify?.['did not run'] ?? 0}</td>
                    <td className="number">{spread(group.judgeScore)}</td>
                    <td className="number">{spread(group.judgeReferenceScore)}</td>
                    <td className="number">{spread(group.rubricScore)}</td>
                    <td className="number">{spread(group.lines)}</td>
                    <td className="number">{spread(group.repairLineShare)}</td>
                    <td>
                      <RunLinks runId={runId} report={report} runs={group.runs ?? []} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <BarChart
            title="Judge score per paper and model (1–5)"
            max={5}
            rows={papers.map((group) => ({
              label: `${group.item} · ${group.model}`,
              value: group.judgeScore?.mean ?? null,
              text: number(group.judgeScore?.mean),
            }))}
          />
          <BarChart
            title="Rubric score per paper and model (0–1)"
            max={1}
            rows={papers.map((group) => ({
              label: `${group.item} · ${group.model}`,
              value: group.rubricScore?.mean ?? null,
              text: number(group.rubricScore?.mean),
            }))}
          />
        </>
      ) : null}
    </section>
  );
}

function RunsTable({
  runId,
  runs,
  report,
}: {
  runId: string;
  runs: RunRecord[];
  report?: EvalSummary;
}) {
  if (runs.length === 0) return <p className="muted">No runs reported yet.</p>;
  return (
    <div className="table-scroll">
      <table className="eval-table eval-runs">
        <thead>
          <tr>
            <th>run</th>
            <th>status</th>
            <th>outcome</th>
            <th>steps</th>
            <th>tokens</th>
            <th>cost</th>
            <th>time</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => {
            const id = nestedRunId(runId, report, run.runDir);
            return (
              <tr key={run.key} data-key={run.key}>
                <td>{id === undefined ? run.key : <a href={runHref(id)}>{run.key}</a>}</td>
                <td>{run.status}</td>
                <td>{outcomeOf(run)}</td>
                <td className="number">{run.steps}</td>
                <td className="number">{(run.inputTokens + run.outputTokens).toLocaleString()}</td>
                <td className="number">${run.costUsd.toFixed(4)}</td>
                <td className="number">{formatDuration(run.wallTimeMs)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function RunLinks({
  runId,
  report,
  runs,
}: {
  runId: string;
  report: EvalSummary;
  runs: { key: string; runDir: string | null; status: string }[];
}) {
  return (
    <span className="run-links">
      {runs.map((run, index) => {
        const id = nestedRunId(runId, report, run.runDir);
        const label = `trial ${index + 1}`;
        return (
          <span key={run.key}>
            {index > 0 ? ', ' : ''}
            {id === undefined ? (
              label
            ) : (
              <a href={runHref(id)} title={`${run.key}: ${run.status}`}>
                {label}
              </a>
            )}
          </span>
        );
      })}
    </span>
  );
}

/** The id the API knows a run of this evaluation by: its path from the runs root. */
function nestedRunId(
  evalRunId: string,
  report: EvalSummary | undefined,
  runDir: string | null,
): string | undefined {
  const evalDir = report?.evalDir;
  if (runDir === null || evalDir === undefined || !runDir.startsWith(`${evalDir}/`)) {
    return undefined;
  }
  return `${evalRunId}/${runDir.slice(evalDir.length + 1)}`;
}

function outcomeOf(run: RunRecord): string {
  if (run.implement !== undefined) {
    const metric = run.implement.metric;
    return `category ${run.implement.category}${metric === null ? '' : ` · ${run.implement.metricName ?? 'metric'} ${metric}${run.implement.starter === null ? '' : ` (starter ${run.implement.starter})`}`}`;
  }
  if (run.paper !== undefined) {
    const judge = run.judge === undefined ? '' : ` · judge ${run.judge.score.toFixed(2)}`;
    const rubric = run.rubric === undefined ? '' : ` · rubric ${run.rubric.score.toFixed(3)}`;
    return `${run.paper.verify}${judge}${rubric}`;
  }
  return '–';
}

function spread(value: Spread | undefined): string {
  if (value === undefined || value.mean === null) return '–';
  const mean = number(value.mean);
  return value.std === null ? mean : `${mean} ± ${number(value.std)}`;
}

function number(value: number | null | undefined): string {
  if (value === null || value === undefined) return '–';
  return Number.isInteger(value) ? String(value) : value.toPrecision(4).replace(/\.?0+$/, '');
}
