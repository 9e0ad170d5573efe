import { memo, useMemo } from 'react';
import { formatDuration, formatTokens } from '../../../src/cli/render/format-values.js';
import { plural } from '../model/format-number.js';
import { WindowedList } from '../components/windowed-list.js';
import type { ModelCall } from '../model/model-calls.js';
import type { RunStep } from '../model/run-steps.js';

/** The planner's answer fields, in the order the research agent writes them. */
const fieldOrder = ['Reflection', 'Research Plan and Status', 'Fact Check', 'Thought'];

const stepKey = (step: RunStep) => step.step;
const stepAttributes = (step: RunStep) => ({ className: 'step', 'data-step': step.step });

/**
 * Each step as the agent lived it: reflection, plan, thought, action, observation. Only the
 * steps near the screen are drawn, and a step is drawn again only when one of its events or
 * model calls changed, so a run of a thousand steps opens as fast as one of ten.
 */
export function StepTimeline({
  steps,
  calls,
}: {
  steps: readonly RunStep[];
  calls: readonly ModelCall[];
}) {
  const callsById = useMemo(() => new Map(calls.map((call) => [call.callId, call])), [calls]);
  if (steps.length === 0) return <p className="muted timeline">No step yet.</p>;
  return (
    <WindowedList
      className="timeline"
      items={steps}
      keyOf={stepKey}
      itemAttributes={stepAttributes}
      estimatedHeight={620}
      render={(step) => (
        <StepCard step={step} calls={step.callIds.flatMap((id) => callsById.get(id) ?? [])} />
      )}
    />
  );
}

/** Model calls are rebuilt from the log on each change; the same events mean the same calls. */
function sameCalls(left: readonly ModelCall[], right: readonly ModelCall[]): boolean {
  return (
    left.length === right.length &&
    left.every(
      (call, index) => call.event === right[index]?.event && call.retries === right[index]?.retries,
    )
  );
}

const StepCard = memo(
  StepCardContent,
  (previous, next) => previous.step === next.step && sameCalls(previous.calls, next.calls),
);

function StepCardContent({ step, calls }: { step: RunStep; calls: ModelCall[] }) {
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
