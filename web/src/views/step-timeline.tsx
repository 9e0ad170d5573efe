import { formatDuration, formatTokens } from '../../../src/cli/render/format-values.js';
import { plural } from '../model/format-number.js';
import type { ModelCall } from '../model/model-calls.js';
import type { RunStep } from '../model/run-steps.js';

/** The planner's answer fields, in the order the research agent writes them. */
const fieldOrder = ['Reflection', 'Research Plan and Status', 'Fact Check', 'Thought'];

/** Each step as the agent lived it: reflection, plan, thought, action, observation. */
export function StepTimeline({ steps, calls }: { steps: RunStep[]; calls: ModelCall[] }) {
  if (steps.length === 0) return <p className="muted timeline">No step yet.</p>;
  const callsById = new Map(calls.map((call) => [call.callId, call]));
  return (
    <ol className="timeline">
      {steps.map((step) => (
        <li key={step.step} className="step" data-step={step.step}>
          <StepCard step={step} calls={step.callIds.flatMap((id) => callsById.get(id) ?? [])} />
        </li>
      ))}
    </ol>
  );
}

function StepCard({ step, calls }: { step: RunStep; calls: ModelCall[] }) {
  const tokens = calls.reduce(
    (sum, call) =>
      sum +
      (call.state === 'answered'
        ? call.event.usage.inputTokens + call.event.usage.outputTokens
        : 0),
    0,
  );
  const extraFields = Object.keys(step.fields).filter(
    (name) => !fieldOrder.includes(name) && name !== 'Action' && name !== 'Action Input',
  );
  return (
    <article className={`step-card ${step.result?.ok === false ? 'failed' : ''}`}>
      <header>
        <span className="step-number">Step {step.step}</span>
        <span className="step-action">
          {step.action ?? (step.cutShort === undefined ? 'thinking…' : 'no action')}
        </span>
        {step.result !== undefined ? (
          <span className={step.result.ok ? 'ok' : 'error'}>
            {step.result.ok ? 'ok' : 'failed'} in {formatDuration(step.result.durationMs)}
          </span>
        ) : step.ended ? null : step.cutShort !== undefined ? (
          <span className="error step-cut-short">{step.cutShort} before the step ended</span>
        ) : (
          <span className="muted">in progress</span>
        )}
        <span className="muted">
          {plural(calls.length, 'model call')}, {formatTokens(tokens)} tokens
        </span>
      </header>
      {step.invalidAnswers.map((answer, index) => (
        <p key={index} className="warning">
          answer refused (level {answer.level}): {answer.error}
        </p>
      ))}
      {[...fieldOrder, ...extraFields].map((name) =>
        step.fields[name] !== undefined ? (
          <div key={name} className={`field field-${name.toLowerCase().replace(/\W+/g, '-')}`}>
            <div className="field-name">{name}</div>
            <pre className="field-text">{step.fields[name]}</pre>
          </div>
        ) : null,
      )}
      {step.action !== undefined ? (
        <div className="field field-action">
          <div className="field-name">Action</div>
          <pre className="field-text">
            {step.action}
            {step.input !== undefined ? `\n${JSON.stringify(step.input, null, 2)}` : ''}
          </pre>
        </div>
      ) : null}
      {step.refusals.map((refusal) => (
        <p key={refusal.seq} className="warning">
          guard {refusal.guard}: {refusal.message}
        </p>
      ))}
      {step.result !== undefined ? (
        <details className="field field-observation" open={step.result.display.length < 1500}>
          <summary className="field-name">Observation</summary>
          <pre className="field-text">{step.result.display}</pre>
        </details>
      ) : null}
      {step.feedback.map((feedback) => (
        <p key={feedback.seq} className="feedback">
          feedback: {feedback.decision}
          {feedback.comment !== undefined ? `: ${feedback.comment}` : ''}
        </p>
      ))}
    </article>
  );
}
