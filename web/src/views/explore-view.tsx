import { useMemo } from 'react';
import type { Exploration } from '../../../src/explore/exploration.js';
import type { ExperimentRecord } from '../../../src/explore/experiments/run-experiments.js';
import { BarChart } from '../components/bar-chart.js';
import { FileBrowser } from '../components/file-browser.js';
import { IdeaCardView } from '../components/idea-card.js';
import { ModelCalls } from '../components/model-calls.js';
import { Tabs } from '../components/tabs.js';
import { apiPaths } from '../model/api-paths.js';
import {
  experimentFigure,
  measured,
  shortResult,
  verdictText,
} from '../model/experiment-result.js';
import { modelCallsOf } from '../model/model-calls.js';
import { useFetched } from '../use-json.js';
import { runHref } from '../use-route.js';
import { EventTimeline } from './events-view.js';
import type { RunViewProps } from './run-view-props.js';

/**
 * An explore run: the idea cards ranked by the judge, each with its reviews, novelty
 * verdicts and measured experiment; the problem analysis with its quote checks; the
 * experiments against their baselines. Read from ideas.json and experiments.json once the
 * run writes them; fields added later are shown when present and never required.
 */
export function ExploreView({ runId, events, tab, filesRevision }: RunViewProps) {
  const active = tab ?? 'ideas';
  const calls = useMemo(() => modelCallsOf(events), [events]);
  const written = useMemo(() => artifactsOf(events), [events]);
  const { data: exploration } = useFetched<Exploration>(
    written.has('ideas.json') ? apiPaths.file(runId, 'ideas.json') : undefined,
    filesRevision,
  );
  const { data: experimentsFile } = useFetched<unknown>(
    written.has('experiments.json') ? apiPaths.file(runId, 'experiments.json') : undefined,
    filesRevision,
  );
  // Tolerant of a later format: a list of records is shown, anything else is not.
  const experiments = Array.isArray(experimentsFile)
    ? (experimentsFile as ExperimentRecord[])
    : undefined;
  const ideas = Array.isArray(exploration?.ideas) ? exploration.ideas : [];
  return (
    <>
      <Tabs
        runId={runId}
        active={active}
        tabs={[
          { id: 'ideas', label: 'Ideas', note: String(ideas.length) },
          { id: 'analysis', label: 'Analysis & quotes' },
          { id: 'experiments', label: 'Experiments', note: String(experiments?.length ?? 0) },
          { id: 'events', label: 'Timeline', note: String(events.length) },
          { id: 'calls', label: 'Model calls', note: String(calls.length) },
          { id: 'files', label: 'Files' },
        ]}
      />
      {active === 'ideas' ? (
        ideas.length === 0 ? (
          <p className="muted">No ideas yet: they appear once the run writes ideas.json.</p>
        ) : (
          <div className="idea-cards">
            {ideas.map((idea, rank) => (
              <IdeaCardView
                key={idea.id}
                idea={idea}
                rank={rank + 1}
                experiment={experiments?.find((record) => record.idea === idea.id)}
              />
            ))}
          </div>
        )
      ) : null}
      {active === 'analysis' ? <Analysis exploration={exploration} /> : null}
      {active === 'experiments' ? <Experiments experiments={experiments} /> : null}
      {active === 'events' ? <EventTimeline events={events} /> : null}
      {active === 'calls' ? <ModelCalls runId={runId} calls={calls} /> : null}
      {active === 'files' ? <FileBrowser runId={runId} reloadKey={filesRevision} /> : null}
    </>
  );
}

/** The run's files named by artifact-write events, by their name in the run folder. */
function artifactsOf(events: RunViewProps['events']): Set<string> {
  const names = new Set<string>();
  for (const event of events) {
    if (event.type === 'artifact-write') names.add(event.path.split('/').pop() ?? '');
    if (event.type === 'stage-end' && event.stage === 'experiments') names.add('experiments.json');
  }
  return names;
}

function Analysis({ exploration }: { exploration?: Exploration }) {
  if (exploration === undefined) return <p className="muted">No analysis yet.</p>;
  const unverified = exploration.unverifiedQuotes ?? [];
  const papers = new Map((exploration.papers ?? []).map((paper) => [paper.id, paper.title]));
  const sections: [string, Exploration['analysis']['tasks']][] = [
    ['Tasks', exploration.analysis?.tasks ?? []],
    ['Gaps', exploration.analysis?.gaps ?? []],
  ];
  return (
    <section className="explore-analysis">
      <p className={unverified.length === 0 ? 'quote-check ok' : 'quote-check warning'}>
        Quote check: {exploration.quotesChecked} quotes checked against the papers;{' '}
        {unverified.length === 0
          ? 'every one found in its paper.'
          : `${unverified.length} not found:`}
      </p>
      {unverified.length > 0 ? (
        <ul className="unverified-quotes">
          {unverified.map((quote) => (
            <li key={quote.where}>
              <code>{quote.where}</code> [{quote.paper}] “{quote.quote}” — {quote.reason}
            </li>
          ))}
        </ul>
      ) : null}
      {sections.map(([title, statements]) => (
        <div key={title}>
          <h3>{title}</h3>
          <ol>
            {statements.map((statement, index) => (
              <li key={index}>
                {statement.statement}
                <ul className="citations">
                  {statement.citations.map((citation, at) => (
                    <li key={at} className="citation">
                      <span className="muted">
                        {citation.paper} {papers.get(citation.paper) ?? ''}, {citation.section}:
                      </span>{' '}
                      “{citation.quote}”
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ol>
        </div>
      ))}
      {(exploration.analysis?.keywords ?? []).length > 0 ? (
        <p>
          <span className="muted">Keywords: </span>
          {exploration.analysis.keywords.join(', ')}
        </p>
      ) : null}
      <h3>Papers and related work</h3>
      <ul>
        {(exploration.papers ?? []).map((paper) => (
          <li key={paper.id}>
            [{paper.id}] {paper.title} <span className="muted">({paper.format})</span>
          </li>
        ))}
        {(exploration.related ?? []).map((item, index) => (
          <li key={`related-${index}`}>
            {item.title} <span className="muted">(related: {item.source})</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Experiments({ experiments }: { experiments?: ExperimentRecord[] }) {
  if (experiments === undefined || experiments.length === 0) {
    return <p className="muted">No experiment has run (yet): explore runs them with --run.</p>;
  }
  const metric = experiments.find((record) => record.metric !== undefined)?.metric;
  return (
    <section className="explore-experiments">
      {metric !== undefined ? (
        <BarChart
          title={`${metric.name} (${metric.goal === 'max' ? 'higher' : 'lower'} is better)`}
          referenceLabel="the baseline"
          rows={experiments.map((record) => ({
            label: `${record.idea} ${record.title}`,
            value: experimentFigure(record).value,
            reference: experimentFigure(record).baseline,
            text: shortResult(record),
          }))}
        />
      ) : null}
      <div className="table-scroll">
        <table className="experiments-table">
          <thead>
            <tr>
              <th>idea</th>
              <th>judge</th>
              <th>status</th>
              <th>measured</th>
              <th>run</th>
            </tr>
          </thead>
          <tbody>
            {experiments.map((record) => (
              <tr key={record.idea} data-idea={record.idea}>
                <td>
                  <b>{record.idea}</b> {record.title}
                </td>
                <td>{record.judgeScore?.toFixed(2) ?? '–'}</td>
                <td>
                  {record.status}
                  <div className="muted">{record.reason}</div>
                </td>
                <td className={`measured verdict-${experimentFigure(record).verdict}`}>
                  {measured(record)}
                  {record.status === 'ran' ? (
                    <div className="verdict">{verdictText[experimentFigure(record).verdict]}</div>
                  ) : null}
                </td>
                <td>
                  {record.runId !== undefined ? (
                    <a href={runHref(record.runId)}>{record.runId}</a>
                  ) : (
                    '–'
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
