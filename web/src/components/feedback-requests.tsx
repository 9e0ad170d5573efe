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
  const [answers, setAnswers] = useState<string[]>(() => (request.questions ?? []).map(() => ''));
  // A pick starts from what the run proposes: approving it as shown is one click.
  const [picked, setPicked] = useState<string[]>(() => request.proposed ?? []);
  const [draft, setDraft] = useState(request.draft ?? '');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const [sent, setSent] = useState<string | undefined>(undefined);
  const send = (answer: FeedbackAnswer) => {
    setSending(true);
    setError(undefined);
    postJson(apiPaths.answer(runId, request.id), answer)
      .then(() => {
        setSent(answer.decision);
        onAnswered();
      })
      .catch((reason: unknown) =>
        setError(reason instanceof Error ? reason.message : String(reason)),
      )
      .finally(() => setSending(false));
  };
  const questions = request.questions ?? [];
  const kindAnswer = (): FeedbackAnswer | undefined => {
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
  };
  const own = kindAnswer();
  return (
    <article className="feedback-card" data-request-id={request.id} data-kind={request.kind}>
      <h3>
        <span className="muted">waiting for you · </span>
        {request.title}
      </h3>
      {request.body !== '' && !(request.kind === 'edit' && draftRepeatsBody(request)) ? (
        <pre className="feedback-body">{request.body}</pre>
      ) : null}
      {questions.map((question, index) => (
        <label key={index} className="feedback-question">
          {question}
          <input
            aria-label={`answer ${index + 1}`}
            value={answers[index] ?? ''}
            onChange={(event) =>
              setAnswers((previous) =>
                previous.map((text, at) => (at === index ? event.target.value : text)),
              )
            }
          />
        </label>
      ))}
      {request.kind === 'pick'
        ? (request.options ?? []).map((option) => (
            <label key={option.id} className="feedback-option">
              <input
                type="checkbox"
                checked={picked.includes(option.id)}
                onChange={(event) =>
                  setPicked((previous) =>
                    event.target.checked
                      ? [...previous, option.id]
                      : previous.filter((id) => id !== option.id),
                  )
                }
              />
              {option.id}: {option.label}
            </label>
          ))
        : null}
      {request.kind === 'edit' ? (
        <textarea
          aria-label="edit the draft"
          className="feedback-draft"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
        />
      ) : null}
      <textarea
        aria-label="comment"
        className="feedback-comment"
        placeholder="a comment (the run passes it on: to the next prompt, or beside the analysis)"
        value={comment}
        onChange={(event) => setComment(event.target.value)}
      />
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
          disabled={sending || comment.trim() === ''}
          onClick={() => send({ decision: 'comment', comment: comment.trim() })}
        >
          Comment
        </button>
        <button
          type="button"
          className="danger"
          disabled={sending}
          onClick={() =>
            send({
              decision: 'stop',
              ...(comment.trim() === '' ? {} : { comment: comment.trim() }),
            })
          }
        >
          Stop the run
        </button>
      </div>
      {sent !== undefined ? <p className="muted">sent: {sent}; waiting for the run…</p> : null}
      {error !== undefined ? <p className="error feedback-error">{error}</p> : null}
    </article>
  );
}

function sameIds(left: readonly string[], right: readonly string[]): boolean {
  return left.length === right.length && left.every((id) => right.includes(id));
}

/** An edit whose draft is its body: the editable draft alone shows it, once. */
function draftRepeatsBody(request: FeedbackRequest): boolean {
  return request.draft !== undefined && request.draft.trim() === request.body.trim();
}
