import { useState } from 'react';
import { formatCost, formatDuration, formatTokens } from '../../../src/cli/render/format-values.js';
import type { EventOf } from '../../../src/runs/events.js';
import type { ModelPrompt } from '../../../src/server/api-types.js';
import { apiPaths } from '../model/api-paths.js';
import type { ModelCall } from '../model/model-calls.js';
import { useFetched } from '../use-json.js';

/** Every model call: role, model, label, tokens, latency, cost; a click shows prompt and answer. */
export function ModelCalls({ runId, calls }: { runId: string; calls: ModelCall[] }) {
  const [open, setOpen] = useState<number | undefined>(undefined);
  if (calls.length === 0) return <p className="muted">No model calls yet.</p>;
  return (
    <table className="model-calls">
      <thead>
        <tr>
          <th className="number">#</th>
          <th>role</th>
          <th>model</th>
          <th>label</th>
          <th className="number">tokens in → out</th>
          <th className="number">latency</th>
          <th className="number">cost</th>
        </tr>
      </thead>
      <tbody>
        {calls.map((call) => (
          <CallRows
            key={call.callId}
            runId={runId}
            call={call}
            open={open === call.callId}
            toggle={() => setOpen(open === call.callId ? undefined : call.callId)}
          />
        ))}
      </tbody>
    </table>
  );
}

function CallRows({
  runId,
  call,
  open,
  toggle,
}: {
  runId: string;
  call: ModelCall;
  open: boolean;
  toggle: () => void;
}) {
  const event = call.event;
  const answered = call.state === 'answered' ? call.event : undefined;
  return (
    <>
      <tr
        className={`model-call model-call-${call.state}`}
        onClick={toggle}
        data-call-id={call.callId}
      >
        <td className="number">{call.callId}</td>
        <td>{event.role}</td>
        <td className="model-name">{event.model}</td>
        <td>{'label' in event ? (event.label ?? '') : ''}</td>
        <td className="number">
          {answered !== undefined
            ? `${formatTokens(answered.usage.inputTokens)} → ${formatTokens(answered.usage.outputTokens)}`
            : call.state === 'waiting'
              ? 'waiting…'
              : 'failed'}
        </td>
        <td className="number">
          {answered !== undefined ? formatDuration(answered.latencyMs) : ''}
        </td>
        <td className="number">
          {answered !== undefined
            ? formatCost({
                costUsd: answered.costUsd ?? 0,
                unpricedCalls: answered.costUsd === null ? 1 : 0,
                llmCalls: 1,
              })
            : ''}
        </td>
      </tr>
      {open ? (
        <tr className="model-call-detail">
          <td colSpan={7}>
            {answered !== undefined ? (
              <>
                <p className="muted">
                  {answered.attempts} attempt{answered.attempts === 1 ? '' : 's'}
                  {answered.usage.cachedInputTokens > 0
                    ? `, ${formatTokens(answered.usage.cachedInputTokens)} input tokens from cache`
                    : ''}
                </p>
                <Prompt runId={runId} event={answered} />
                <Message role="answer" content={answered.text} />
              </>
            ) : call.state === 'failed' ? (
              <p className="error">{call.event.message}</p>
            ) : (
              <p className="muted">The model has not answered yet.</p>
            )}
          </td>
        </tr>
      ) : null}
    </>
  );
}

/** What the call was sent: in the event, or (left out of the lean stream) asked for now. */
function Prompt({ runId, event }: { runId: string; event: EventOf<'llm-end'> }) {
  const omitted = 'promptOmitted' in event && event.promptOmitted === true;
  const { data, error } = useFetched<ModelPrompt>(
    omitted ? apiPaths.prompt(runId, event.seq) : undefined,
    0,
  );
  const prompt: ModelPrompt | undefined = omitted ? data : event;
  if (prompt === undefined) {
    return (
      <p className={error === undefined ? 'muted' : 'error'}>{error ?? 'Loading the prompt…'}</p>
    );
  }
  return (
    <>
      {prompt.system !== undefined ? <Message role="system" content={prompt.system} /> : null}
      {prompt.messages.map((message, index) => (
        <Message
          key={index}
          role={message.role}
          content={message.content}
          cacheMark={'cacheMark' in message && message.cacheMark === true}
        />
      ))}
    </>
  );
}

/**
 * One message of a prompt. A message that carries a cache mark ends a prefix the provider
 * may serve from its cache on the next call (the system prompt is marked as well).
 */
function Message({
  role,
  content,
  cacheMark = false,
}: {
  role: string;
  content: string;
  cacheMark?: boolean;
}) {
  return (
    <div className={`message message-${role}`}>
      <div className="message-role">
        {role}
        {cacheMark ? (
          <span
            className="cache-mark"
            title="a cache mark: the prompt up to here is a prefix a provider can cache"
          >
            {' '}
            · cache mark
          </span>
        ) : null}
      </div>
      <pre className="message-text">{content}</pre>
    </div>
  );
}
