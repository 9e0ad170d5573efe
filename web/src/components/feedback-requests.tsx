import { useEffect, useMemo, useState } from 'react';
import type { FeedbackAnswer, FeedbackRequest } from '../../../src/runs/feedback.js';
import type { CodifyEvent, EventOf } from '../../../src/runs/events.js';
import type { FeedbackEntry } from '../../../src/server/api-types.js';
import { apiPaths } from '../model/api-paths.js';
import { postJson } from '../post-json.js';
import { useFetched } from '../use-json.js';

/** How often the requests are read again while one is waiting (its file may lag its event). */
const pollMs = 1500;

/**
 * What a live interactive run is waiting for, one card each: the same requests the terminal
 * asks, answered through the run folder. The first answer (here or in the terminal) wins; a
 * card disappears once its request is answered, and the answer shows in the timeline.
 */
export function FeedbackRequests({
  runId,
  events,
  live,
}: {
  runId: string;
  events: readonly CodifyEvent[];
  live: boolean;
}) {
  const waiting = useMemo(() => waitingRequests(events), [events]);
  const [tick, setTick] = useState(0);
  const { data: entries } = useFetched<FeedbackEntry[]>(
    live && waiting.length > 0 ? apiPaths.feedback(runId) : undefined,
    `${events.length}-${tick}`,
  );
  useEffect(() => {
    if (!live || waiting.length === 0) return;
    const timer = window.setInterval(() => setTick((value) => value + 1), pollMs);
    return () => window.clearInterval(timer);
  }, [live, waiting.length]);
  if (!live) return null;
  const open = waiting.flatMap((event) => {
    const entry = entries?.find((candidate) => candidate.request.id === event.id);
    if (entry?.answer !== undefined) return [];
    return [{ request: entry?.request ?? requestOfEvent(event), loaded: entry !== undefined }];
  });
  if (open.length === 0) return null;
  return (
    <section className="feedback-requests" aria-label="waiting for you">
      {open.map(({ request, loaded }) => (
        <FeedbackCard
          // Drawn again once the request file is read: its draft and options fill the form.
          key={`${request.id}-${String(loaded)}`}
          runId={runId}
          request={request}
          onAnswered={() => setTick((value) => value + 1)}
        />
      ))}
    </section>
  );
}

/** The waiting requests of the latest attempt (a resumed run asks again after its start). */
function waitingRequests(events: readonly CodifyEvent[]): EventOf<'feedback-request'>[] {
  const waiting = new Map<string, EventOf<'feedback-request'>>();
  for (const event of events) {
    if (event.type === 'run-start') waiting.clear();
    if (event.type === 'feedback-request' && event.waiting) waiting.set(event.id, event);
  }
  return [...waiting.values()];
}

/** Until the request file is read, the event says enough to approve, comment or stop. */
function requestOfEvent(event: EventOf<'feedback-request'>): FeedbackRequest {
  return {
    id: event.id,
    kind: event.kind,
    title: event.title,
    body: '',
    ...(event.questions === undefined ? {} : { questions: event.questions }),
  };
}

/** Posts an answer to the run, with what the card shows while and after it is sent. */
function useAnswerSender(runId: string, requestId: string, onAnswered: () => void) {
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const [sent, setSent] = useState<string | undefined>(undefined);
  const send = (answer: FeedbackAnswer) => {
    setSending(true);
    setError(undefined);
    postJson(apiPaths.answer(runId, requestId), answer)
      .then(() => {
        setSent(answer.decision);
        onAnswered();
      })
      .catch((reason: unknown) =>
        setError(reason instanceof Error ? reason.message : String(reason)),
      )
      .finally(() => setSending(false));
  };
  return { send, sending, error, sent };
}

/** What the researcher filled in beyond approving: answers, a changed pick, an edited draft. */
interface KindInput {
  answers: string[];
  picked: string[];
  draft: string;
}

/** The answer of the request's own kind, when the researcher changed something. */
function ownAnswer(request: FeedbackRequest, input: KindInput): FeedbackAnswer | undefined {
  const { answers, picked, draft } = input;
  if (request.kind === 'answer' && answers.some((text) => text.trim() !== '')) {
    return {
      decision: 'answer',
      answers: answers.map((text) => (text.trim() === '' ? '(no answer)' : text.trim())),
    };
  }
  if (request.kind === 'pick' && picked.length > 0 && !sameIds(picked, request.proposed ?? [])) {
    return { decision: 'pick', picked };
  }
  if (request.kind === 'edit' && draft.trim() !== '' && draft !== request.draft) {
    return { decision: 'edit', text: draft };
  }
  return undefined;
}

function FeedbackCard({
  runId,
  request,
  onAnswered,
}: {
  runId: string;
  request: FeedbackRequest;
  onAnswered: () => void;
}) {
  const [comment, setComment] = useState('');
  const [input, setInput] = useState<KindInput>(() => ({
    answers: (request.questions ?? []).map(() => ''),
    // A pick starts from what the run proposes: approving it as shown is one click.
    picked: request.proposed ?? [],
    draft: request.draft ?? '',
  }));
  const { send, sending, error, sent } = useAnswerSender(runId, request.id, onAnswered);
  return (
    <article className="feedback-card" data-request-id={request.id} data-kind={request.kind}>
      <h3>
        <span className="muted">waiting for you · </span>
        {request.title}
      </h3>
      {request.body !== '' && !(request.kind === 'edit' && draftRepeatsBody(request)) ? (
        <pre className="feedback-body">{request.body}</pre>
      ) : null}
      <KindInputs request={request} input={input} setInput={setInput} />
      <textarea
        aria-label="comment"
        className="feedback-comment"
        placeholder="a comment (the run passes it on: to the next prompt, or beside the analysis)"
        value={comment}
        onChange={(event) => setComment(event.target.value)}
      />
      <FeedbackButtons
        request={request}
        own={ownAnswer(request, input)}
        comment={comment.trim()}
        sending={sending}
        send={send}
      />
      {sent !== undefined ? <p className="muted">sent: {sent}; waiting for the run…</p> : null}
      {error !== undefined ? <p className="error feedback-error">{error}</p> : null}
    </article>
  );
}

/** The inputs of the request's kind: one per question, the options to pick, the draft. */
function KindInputs({
  request,
  input,
  setInput,
}: {
  request: FeedbackRequest;
  input: KindInput;
  setInput: (update: (previous: KindInput) => KindInput) => void;
}) {
  const togglePick = (id: string, checked: boolean) =>
    setInput((previous) => ({
      ...previous,
      picked: checked
        ? [...previous.picked, id]
        : previous.picked.filter((picked) => picked !== id),
    }));
  return (
    <>
      {(request.questions ?? []).map((question, index) => (
        <label key={index} className="feedback-question">
          {question}
          <input
            aria-label={`answer ${index + 1}`}
            value={input.answers[index] ?? ''}
            onChange={(event) => {
              const text = event.target.value;
              setInput((previous) => ({
                ...previous,
                answers: previous.answers.map((answer, at) => (at === index ? text : answer)),
              }));
            }}
          />
        </label>
      ))}
      {request.kind === 'pick'
        ? (request.options ?? []).map((option) => (
            <label key={option.id} className="feedback-option">
              <input
                type="checkbox"
                checked={input.picked.includes(option.id)}
                onChange={(event) => togglePick(option.id, event.target.checked)}
              />
              {option.id}: {option.label}
            </label>
          ))
        : null}
      {request.kind === 'edit' ? (
        <textarea
          aria-label="edit the draft"
          className="feedback-draft"
          value={input.draft}
          onChange={(event) => {
            const draft = event.target.value;
            setInput((previous) => ({ ...previous, draft }));
          }}
        />
      ) : null}
    </>
  );
}

/** Approve (or send the researcher's own answer), comment, or stop the run. */
function FeedbackButtons({
  request,
  own,
  comment,
  sending,
  send,
}: {
  request: FeedbackRequest;
  own: FeedbackAnswer | undefined;
  comment: string;
  sending: boolean;
  send: (answer: FeedbackAnswer) => void;
}) {
  return (
    <div className="form-buttons">
      {own !== undefined ? (
        <button type="button" disabled={sending} onClick={() => send(own)}>
          {request.kind === 'answer' ? 'Answer' : request.kind === 'pick' ? 'Pick' : 'Save edit'}
        </button>
      ) : (
        <button type="button" disabled={sending} onClick={() => send({ decision: 'approve' })}>
          {request.kind === 'pick' ? 'Approve as proposed' : 'Approve'}
        </button>
      )}
      <button
        type="button"
        disabled={sending || comment === ''}
        onClick={() => send({ decision: 'comment', comment })}
      >
        Comment
      </button>
      <button
        type="button"
        className="danger"
        disabled={sending}
        onClick={() => send({ decision: 'stop', ...(comment === '' ? {} : { comment }) })}
      >
        Stop the run
      </button>
    </div>
  );
}

function sameIds(left: readonly string[], right: readonly string[]): boolean {
  return left.length === right.length && left.every((id) => right.includes(id));
}

/** An edit whose draft is its body: the editable draft alone shows it, once. */
function draftRepeatsBody(request: FeedbackRequest): boolean {
  return request.draft !== undefined && request.draft.trim() === request.body.trim();
}
