import { useEffect, useMemo, useState } from 'react';
import { formatAge, formatCost, formatTokens } from '../../../src/cli/render/format-values.js';
import type { RunListEntry } from '../../../src/server/api-types.js';
import { StartRunForm } from '../components/start-run-form.js';
import { StatusBadge } from '../components/status-badge.js';
import { apiPaths } from '../model/api-paths.js';
import { useFetched } from '../use-json.js';
import { runHref } from '../use-route.js';

/** How often the list is asked again, so new and finishing runs show up without a reload. */
const refreshMs = 2000;

/** What the list is narrowed to: a mode, a status, words of a name or id. */
interface RunFilter {
  mode: string;
  status: string;
  search: string;
}

function matches(run: RunListEntry, filter: RunFilter): boolean {
  const words = filter.search.trim().toLowerCase();
  return (
    (filter.mode === 'all' || run.mode === filter.mode) &&
    (filter.status === 'all' || run.status === filter.status) &&
    (words === '' || `${run.name} ${run.id}`.toLowerCase().includes(words))
  );
}

export function RunsListPage() {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const timer = window.setInterval(() => setTick((value) => value + 1), refreshMs);
    return () => window.clearInterval(timer);
  }, []);
  const { data: runs, error, loaded } = useFetched<RunListEntry[]>(apiPaths.runs(), tick);
  const [filter, setFilter] = useState<RunFilter>({ mode: 'all', status: 'all', search: '' });
  const [starting, setStarting] = useState(false);
  return (
    <section className="runs-list">
      <div className="toolbar">
        <h1>Runs</h1>
        <RunFilters runs={runs ?? []} filter={filter} setFilter={setFilter} />
        {!starting ? (
          <button type="button" className="start-button" onClick={() => setStarting(true)}>
            Start a run…
          </button>
        ) : null}
      </div>
      {starting ? <StartRunForm onClose={() => setStarting(false)} /> : null}
      {error !== undefined ? <p className="error">{error}</p> : null}
      {loaded && runs?.length === 0 ? (
        <p className="empty">
          No runs yet. <code>codify implement</code> and <code>codify paper</code> record theirs in
          this folder; they appear here as they start.
        </p>
      ) : null}
      <RunsTable runs={(runs ?? []).filter((run) => matches(run, filter))} />
    </section>
  );
}

function RunFilters({
  runs,
  filter,
  setFilter,
}: {
  runs: RunListEntry[];
  filter: RunFilter;
  setFilter: (update: (previous: RunFilter) => RunFilter) => void;
}) {
  const modes = useMemo(() => distinct(runs.map((run) => run.mode)), [runs]);
  const statuses = useMemo(() => distinct(runs.map((run) => run.status)), [runs]);
  const set = (key: keyof RunFilter, value: string) =>
    setFilter((previous) => ({ ...previous, [key]: value }));
  return (
    <>
      <FilterSelect
        name="mode"
        value={filter.mode}
        values={modes}
        onChange={(value) => set('mode', value)}
      />
      <FilterSelect
        name="status"
        value={filter.status}
        values={statuses}
        label={(value) => (value === 'running' ? 'live' : value)}
        onChange={(value) => set('status', value)}
      />
      <input
        type="search"
        aria-label="search"
        placeholder="search by name or id"
        value={filter.search}
        onChange={(event) => set('search', event.target.value)}
      />
    </>
  );
}

/** A labelled select of the values the listed runs have, with "all" first. */
function FilterSelect({
  name,
  value,
  values,
  label = (shown) => shown,
  onChange,
}: {
  name: string;
  value: string;
  values: string[];
  label?: (value: string) => string;
  onChange: (value: string) => void;
}) {
  return (
    <label>
      {name}{' '}
      <select aria-label={name} value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="all">all</option>
        {values.map((option) => (
          <option key={option} value={option}>
            {label(option)}
          </option>
        ))}
      </select>
    </label>
  );
}

function RunsTable({ runs }: { runs: RunListEntry[] }) {
  const now = Date.now();
  return (
    <table className="runs-table">
      <thead>
        <tr>
          <th>run</th>
          <th>mode</th>
          <th>status</th>
          <th className="number">steps</th>
          <th className="number">tokens</th>
          <th className="number">cost</th>
          <th>outcome</th>
          <th className="number">age</th>
        </tr>
      </thead>
      <tbody>
        {runs.map((run) => (
          <tr key={run.id} data-run-id={run.id}>
            <td>
              <a href={runHref(run.id)} className="run-name">
                {run.name}
              </a>
              <div className="run-id">{run.id}</div>
            </td>
            <td>{run.mode}</td>
            <td>
              <StatusBadge status={run.status} />
              {run.waiting !== undefined ? (
                <span className="waiting-badge" title={run.waiting.join(', ')}>
                  waiting for you
                </span>
              ) : null}
            </td>
            <td className="number">{run.totals.steps}</td>
            <td className="number">
              {formatTokens(run.totals.inputTokens + run.totals.outputTokens)}
            </td>
            <td className="number">{formatCost(run.totals)}</td>
            <td className="outcome">{run.problem ?? run.outcome ?? outcomeOf(run)}</td>
            <td className="number">{formatAge(now - Date.parse(run.startedAt))}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function outcomeOf(run: RunListEntry): string {
  switch (run.status) {
    case 'running':
      return 'in progress';
    case 'killed':
      return 'ended without finishing (resume it with codify resume)';
    default:
      return run.status;
  }
}

function distinct(values: string[]): string[] {
  return [...new Set(values)].sort();
}
