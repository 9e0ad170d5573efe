import { useMemo } from 'react';
import type { Plan } from '../../../src/repo/planning.js';
import type { RepoReport } from '../../../src/repo/report.js';
import { formatDuration } from '../../../src/cli/render/format-values.js';
import { CodeView } from '../components/code-view.js';
import { FileBrowser, FileContent } from '../components/file-browser.js';
import { MathText } from '../components/math-text.js';
import { MermaidDiagram } from '../components/mermaid-diagram.js';
import { ModelCalls } from '../components/model-calls.js';
import { Tabs } from '../components/tabs.js';
import { apiPaths } from '../model/api-paths.js';
import { modelCallsOf } from '../model/model-calls.js';
import { relativeToRun, stagesOf, type RunStage } from '../model/run-stages.js';
import { stepsOf } from '../model/run-steps.js';
import { useFetched } from '../use-json.js';
import type { RunViewProps } from './run-view-props.js';
import { StepTimeline } from './step-timeline.js';

/** A paper run: stages, plan and design, config with quotes, generated files, verify and repair. */
export function PaperView({ runId, events, tab, filesRevision }: RunViewProps) {
  const active = tab ?? 'stages';
  const stages = useMemo(() => stagesOf(events), [events]);
  const calls = useMemo(() => modelCallsOf(events), [events]);
  const hasPlan = stages.some((stage) => stage.stage === 'plan' && stage.ok === true);
  const { data: plan } = useFetched<Plan>(
    hasPlan ? apiPaths.file(runId, 'plan.json') : undefined,
    filesRevision,
  );
  const ended = events.some((event) => event.type === 'run-end');
  const { data: report } = useFetched<RepoReport>(
    ended ? apiPaths.file(runId, 'report.json') : undefined,
    filesRevision,
  );
  return (
    <>
      <Tabs
        runId={runId}
        active={active}
        tabs={[
          { id: 'stages', label: 'Stages', note: String(stages.length) },
          { id: 'plan', label: 'Plan' },
          { id: 'design', label: 'Design' },
          {
            id: 'config',
            label: 'Config',
            note: plan === undefined ? undefined : String(plan.config.entries.length),
          },
          { id: 'files', label: 'Generated files' },
          { id: 'verify', label: 'Verify & repair' },
          { id: 'calls', label: 'Model calls', note: String(calls.length) },
        ]}
      />
      {active === 'stages' ? <Stages stages={stages} report={report} /> : null}
      {active === 'plan' ? <PlanSection plan={plan} /> : null}
      {active === 'design' ? (
        <Design runId={runId} plan={plan} filesRevision={filesRevision} />
      ) : null}
      {active === 'config' ? <Config plan={plan} /> : null}
      {active === 'files' ? (
        <FileBrowser runId={runId} reloadKey={filesRevision} under="repo/" />
      ) : null}
      {active === 'verify' ? (
        <Verify
          runId={runId}
          events={events}
          stages={stages}
          report={report}
          filesRevision={filesRevision}
        />
      ) : null}
      {active === 'calls' ? <ModelCalls runId={runId} calls={calls} /> : null}
    </>
  );
}

function Stages({ stages, report }: { stages: RunStage[]; report?: RepoReport }) {
  const usage = new Map((report?.stages ?? []).map((stage) => [stage.stage, stage]));
  return (
    <ol className="stages">
      {stages.map((stage, index) => {
        const used = usage.get(stage.stage);
        return (
          <li
            key={index}
            className={`stage stage-${stage.ok === undefined ? 'running' : stage.ok ? 'ok' : 'failed'}`}
            data-stage={stage.stage}
          >
            <header>
              <span className="stage-name">{stage.stage}</span>
              <span>{stage.ok === undefined ? 'running…' : stage.ok ? 'done' : 'failed'}</span>
              {stage.endedAt !== undefined ? (
                <span className="muted">
                  {formatDuration(Date.parse(stage.endedAt) - Date.parse(stage.startedAt))}
                </span>
              ) : null}
              {used !== undefined ? (
                <span className="muted">
                  {used.calls} calls, {used.inputTokens + used.outputTokens} tokens
                  {used.commit !== undefined ? `, commit ${used.commit}` : ''}
                </span>
              ) : null}
            </header>
            {stage.detail !== undefined ? <p className="muted">{stage.detail}</p> : null}
            {stage.endDetail !== undefined ? (
              <pre className="stage-detail">{stage.endDetail}</pre>
            ) : null}
            {stage.artifacts.length > 0 ? (
              <ul className="artifacts">
                {stage.artifacts.map((artifact) => (
                  <li key={artifact.seq}>
                    <span className="artifact-kind">{artifact.kind}</span>{' '}
                    {artifact.path.replace(/^.*\/repo\//, 'repo/')}
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}

function PlanSection({ plan }: { plan?: Plan }) {
  if (plan === undefined) return <p className="muted">The plan is not written yet.</p>;
  return (
    <div className="two-columns">
      <section>
        <h2>Overall plan</h2>
        <pre className="plan">{plan.overall}</pre>
      </section>
      <section>
        <h2>Files</h2>
        <p>{plan.architecture.implementationApproach}</p>
        <table>
          <tbody>
            {plan.architecture.files.map((file) => (
              <tr key={file.path}>
                <td>
                  <code>{file.path}</code>
                </td>
                <td>{file.purpose}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <h2>Packages</h2>
        <p>{plan.logic.requiredPackages.map((name) => name.name).join(', ')}</p>
      </section>
    </div>
  );
}

function Design({
  runId,
  plan,
  filesRevision,
}: {
  runId: string;
  plan?: Plan;
  filesRevision: number;
}) {
  if (plan === undefined) return <p className="muted">The design is not written yet.</p>;
  return (
    <div className="design">
      <section>
        <h2>Class diagram</h2>
        <MermaidDiagram source={plan.architecture.classDiagram} />
        <h2>Sequence diagram</h2>
        <MermaidDiagram source={plan.architecture.sequenceDiagram} />
      </section>
      <section>
        <h2>Logic design</h2>
        <p>
          Order: {plan.logic.order.join(' → ')}; entry point <code>{plan.logic.entryPoint}</code>
        </p>
        <pre className="plan">{plan.logic.sharedKnowledge}</pre>
        {plan.logic.fileLogic.map((file) => (
          <article key={file.path} className="file-logic">
            <h3>{file.path}</h3>
            <pre className="plan">{file.logic}</pre>
            <details>
              <summary>analysis</summary>
              <FileContent
                runId={runId}
                path={`repo/docs/analysis/${file.path.replace(/\.py$/, '')}.md`}
                bytes={0}
                reloadKey={filesRevision}
              />
            </details>
          </article>
        ))}
      </section>
    </div>
  );
}

function Config({ plan }: { plan?: Plan }) {
  if (plan === undefined) return <p className="muted">The configuration is not written yet.</p>;
  return (
    <section>
      <h2>Values of config.yaml</h2>
      <table className="config">
        <thead>
          <tr>
            <th>key</th>
            <th>value</th>
            <th>quote from the paper, or why it was chosen</th>
          </tr>
        </thead>
        <tbody>
          {plan.config.entries.map((entry) => (
            <tr key={entry.key}>
              <td>
                <code>{entry.key}</code>
              </td>
              <td>
                <code>{JSON.stringify(entry.value)}</code>
              </td>
              <td className="quote">
                {entry.evidence === undefined ? (
                  <>
                    <em>implementation choice:</em> {entry.choice}
                  </>
                ) : (
                  <>
                    “<MathText text={entry.evidence} />”
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Smoke-run overrides</h2>
      <ul>
        {plan.config.smokeOverrides.map((entry) => (
          <li key={entry.key}>
            <code>{entry.key}</code> = <code>{JSON.stringify(entry.value)}</code>
          </li>
        ))}
      </ul>
      {plan.dropped.length > 0 ? (
        <p className="warning">
          Left out (their quote is not in the paper): {plan.dropped.join(', ')}
        </p>
      ) : (
        <p className="muted">Every value is traced to a quote of the paper.</p>
      )}
    </section>
  );
}

function Verify({
  runId,
  events,
  stages,
  report,
  filesRevision,
}: {
  runId: string;
  events: RunViewProps['events'];
  stages: RunStage[];
  report?: RepoReport;
  filesRevision: number;
}) {
  const verify = stages.filter((stage) => stage.stage === 'verify');
  const executions = verify.flatMap((stage) => stage.executions);
  const repairSteps = useMemo(() => stepsOf(events), [events]);
  const calls = useMemo(() => modelCallsOf(events), [events]);
  return (
    <div className="verify">
      {report !== undefined ? (
        <p className={report.verify.ok ? 'ok' : 'error'}>
          <strong>
            {report.verify.ok ? 'The repository runs' : 'The repository does not run'}
          </strong>
          : {report.verify.summary}
        </p>
      ) : null}
      {executions.length === 0 ? <p className="muted">No smoke run yet.</p> : null}
      {executions.map((execution, index) => {
        const output =
          execution.outputPath === undefined
            ? undefined
            : relativeToRun(execution.outputPath, runId);
        return (
          <article key={execution.seq} className="smoke-run">
            <h3>
              Smoke run {index + 1}: <code>{[execution.script, ...execution.args].join(' ')}</code>{' '}
              <span className={execution.exitCode === 0 ? 'ok' : 'error'}>
                {execution.timedOut ? 'timed out' : `exit ${String(execution.exitCode)}`}
              </span>{' '}
              <span className="muted">{formatDuration(execution.durationMs)}</span>
            </h3>
            {output !== undefined ? (
              <FileContent runId={runId} path={output} bytes={0} reloadKey={filesRevision} />
            ) : null}
          </article>
        );
      })}
      {repairSteps.length > 0 ? (
        <>
          <h2>Repair steps</h2>
          <StepTimeline steps={repairSteps} calls={calls} />
        </>
      ) : null}
      {report?.verify !== undefined && 'runs' in report.verify && report.verify.runs.length > 0 ? (
        <>
          <h2>Last output</h2>
          <CodeView text={report.verify.runs.at(-1)?.outputTail ?? ''} path="output.txt" />
        </>
      ) : null}
    </div>
  );
}
