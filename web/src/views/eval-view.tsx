import { useMemo } from 'react';
import { formatDuration } from '../../../src/cli/render/format-values.js';
import type { EvalSummary } from '../../../src/eval/collection/collect-evaluation.js';
import type { RunRecord } from '../../../src/eval/collection/run-record.js';
import type { Spread } from '../../../src/eval/collection/spread.js';
import { BarChart } from '../components/bar-chart.js';
import type { Column } from '../components/data-table.js';
import { DataTable } from '../components/data-table.js';
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

type ImplementGroup = NonNullable<EvalSummary['implement']>[number];
type PaperGroup = NonNullable<EvalSummary['papers']>[number];
type Comparison = NonNullable<EvalSummary['comparisons']>[number];

function Report({ runId, report }: { runId: string; report: EvalSummary }) {
  const implement = report.implement ?? [];
  const papers = report.papers ?? [];
  const comparisons = report.comparisons ?? [];
  return (
    <section className="eval-report">
      <ReportTotals report={report} />
      {implement.length > 0 ? (
        <ImplementSection runId={runId} report={report} groups={implement} />
      ) : null}
      {comparisons.length > 0 ? <ComparisonSection rows={comparisons} /> : null}
      {papers.length > 0 ? <PaperSection runId={runId} report={report} groups={papers} /> : null}
    </section>
  );
}

function ReportTotals({ report }: { report: EvalSummary }) {
  const totals = report.totals;
  return (
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
  );
}

function ImplementSection({
  runId,
  report,
  groups,
}: {
  runId: string;
  report: EvalSummary;
  groups: ImplementGroup[];
}) {
  const columns: Column<ImplementGroup>[] = [
    { header: 'task', cell: (group) => group.item },
    { header: 'strategy', cell: (group) => group.strategy },
    { header: 'model', cell: (group) => group.model },
    ...categories.map((category): Column<ImplementGroup> => ({
      header: category,
      cell: (group) => group.counts?.[category] ?? 0,
      numeric: true,
    })),
    { header: 'metric', cell: (group) => spread(group.metric), numeric: true },
    { header: 'gain over the starter', cell: (group) => spread(group.improvement), numeric: true },
    {
      header: 'starter noise margin',
      cell: (group) => number(report.noise?.[group.item]?.margin),
      numeric: true,
    },
    { header: 'lines edited', cell: (group) => spread(group.linesEdited), numeric: true },
    {
      header: 'time saving',
      cell: (group) =>
        group.timeSaving === null || group.timeSaving === undefined
          ? '–'
          : `${(group.timeSaving * 100).toFixed(1)} %`,
      numeric: true,
    },
    {
      header: 'runs',
      cell: (group) => <RunLinks runId={runId} report={report} runs={group.runs ?? []} />,
    },
  ];
  return (
    <>
      <h3>Implement tasks</h3>
      <DataTable
        className="eval-table implement-groups"
        columns={columns}
        rows={groups}
        rowKey={(group) => `${group.item}-${group.strategy}-${group.model}`}
      />
      <BarChart
        title="Gain over the starter, mean per task, strategy and model"
        referenceLabel="the starter's noise margin"
        rows={groups.map((group) => ({
          label: `${group.item} · ${group.strategy} · ${group.model}`,
          value: group.improvement?.mean ?? null,
          reference: report.noise?.[group.item]?.margin ?? null,
          text: number(group.improvement?.mean),
        }))}
      />
    </>
  );
}

function ComparisonSection({ rows }: { rows: Comparison[] }) {
  const columns: Column<Comparison>[] = [
    { header: 'strategy', cell: (row) => row.strategy },
    { header: 'model', cell: (row) => row.model },
    { header: 'finished', cell: (row) => row.finished, numeric: true },
    ...categories.map((category): Column<Comparison> => ({
      header: `${category} %`,
      cell: (row) => number(row.percent?.[category]),
      numeric: true,
    })),
    {
      header: 'cost per run',
      cell: (row) =>
        row.costUsd?.mean === null || row.costUsd?.mean === undefined
          ? '–'
          : `$${row.costUsd.mean.toFixed(4)}`,
      numeric: true,
    },
    {
      header: 'time per run',
      cell: (row) =>
        row.wallTimeMs?.mean === null || row.wallTimeMs?.mean === undefined
          ? '–'
          : formatDuration(row.wallTimeMs.mean),
      numeric: true,
    },
  ];
  return (
    <>
      <h3>Strategies and models compared</h3>
      <DataTable
        className="eval-table comparisons"
        columns={columns}
        rows={rows}
        rowKey={(row) => `${row.strategy}-${row.model}`}
      />
      <BarChart
        title="Runs in category A (a gain beyond the margin), percent"
        max={100}
        rows={rows.map((row) => ({
          label: `${row.strategy} · ${row.model}`,
          value: row.percent?.A ?? null,
          text: `${number(row.percent?.A)} %`,
        }))}
      />
    </>
  );
}

function PaperSection({
  runId,
  report,
  groups,
}: {
  runId: string;
  report: EvalSummary;
  groups: PaperGroup[];
}) {
  const verify = (outcome: 'ran as generated' | 'ran after repair' | 'did not run') => ({
    header: outcome,
    cell: (group: PaperGroup) => group.verify?.[outcome] ?? 0,
    numeric: true,
  });
  const columns: Column<PaperGroup>[] = [
    { header: 'paper', cell: (group) => group.item },
    { header: 'model', cell: (group) => group.model },
    verify('ran as generated'),
    verify('ran after repair'),
    verify('did not run'),
    { header: 'judge (1–5)', cell: (group) => spread(group.judgeScore), numeric: true },
    {
      header: 'judge with reference',
      cell: (group) => spread(group.judgeReferenceScore),
      numeric: true,
    },
    { header: 'rubric (0–1)', cell: (group) => spread(group.rubricScore), numeric: true },
    { header: 'lines', cell: (group) => spread(group.lines), numeric: true },
    { header: 'repair share', cell: (group) => spread(group.repairLineShare), numeric: true },
    {
      header: 'runs',
      cell: (group) => <RunLinks runId={runId} report={report} runs={group.runs ?? []} />,
    },
  ];
  const scoreChart = (
    title: string,
    max: number,
    score: (group: PaperGroup) => Spread | undefined,
  ) => (
    <BarChart
      title={title}
      max={max}
      rows={groups.map((group) => ({
        label: `${group.item} · ${group.model}`,
        value: score(group)?.mean ?? null,
        text: number(score(group)?.mean),
      }))}
    />
  );
  return (
    <>
      <h3>Papers</h3>
      <DataTable
        className="eval-table paper-groups"
        columns={columns}
        rows={groups}
        rowKey={(group) => `${group.item}-${group.model}`}
      />
      {scoreChart('Judge score per paper and model (1–5)', 5, (group) => group.judgeScore)}
      {scoreChart('Rubric score per paper and model (0–1)', 1, (group) => group.rubricScore)}
    </>
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
    const judge = run.judge === undefined ? '' : ` · judge ${judgeText(run.judge)}`;
    const rubric = run.rubric === undefined ? '' : ` · rubric ${run.rubric.score.toFixed(3)}`;
    return `${run.paper.verify}${judge}${rubric}`;
  }
  return '–';
}

/** The judge's score with the spread of its samples and what it did not see whole. */
function judgeText(judge: NonNullable<RunRecord['judge']>): string {
  const { samples } = judge;
  const range =
    samples.length > 1
      ? ` (${samples.length} samples, ${Math.min(...samples)}–${Math.max(...samples)})`
      : '';
  const split = judge.split === undefined ? '' : `; split: ${judge.split}`;
  return `${judge.score.toFixed(2)}${range}${split}`;
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
