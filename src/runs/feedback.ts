import { z } from 'zod';

/**
 * What a pipeline may ask a person. Every request can also be answered with a comment or
 * `stop`; `kind` says what else fits: approve it as shown, pick among options, edit a draft,
 * or answer questions.
 */
export const feedbackKinds = ['approve', 'pick', 'edit', 'answer'] as const;
export type FeedbackKind = (typeof feedbackKinds)[number];

export const feedbackAnswerSchema = z.discriminatedUnion('decision', [
  z.object({ decision: z.literal('approve') }),
  z.object({ decision: z.literal('pick'), picked: z.array(z.string().min(1)).min(1) }),
  z.object({ decision: z.literal('edit'), text: z.string().min(1) }),
  z.object({ decision: z.literal('answer'), answers: z.array(z.string()).min(1) }),
  z.object({ decision: z.literal('comment'), comment: z.string().min(1) }),
  z.object({ decision: z.literal('stop'), comment: z.string().optional() }),
]);
/** A person's answer to a request, as the answer file in the run folder holds it. */
export type FeedbackAnswer = z.infer<typeof feedbackAnswerSchema>;

export interface FeedbackRequest {
  /** Unique in the run, safe as a file name, e.g. `step-3`. */
  id: string;
  kind: FeedbackKind;
  /** One line: what is being decided. */
  title: string;
  /** What the person needs to see to decide (Markdown). */
  body: string;
  /** For `pick`: the choices. */
  options?: { id: string; label: string }[];
  /** For `pick`: the options proposed (what `approve` keeps), which a form starts with. */
  proposed?: string[];
  /** For `answer`: the questions, in order. */
  questions?: string[];
  /** For `edit`: the text to edit. */
  draft?: string;
}

/**
 * One feedback interface for every interface: the terminal implements it today; the web app
 * and MCP clients answer the same requests through the run folder (see feedback-folder.ts).
 */
export interface FeedbackChannel {
  /**
   * Asks and resolves with the answer. When `signal` aborts, the request was answered
   * elsewhere (the run folder): the channel withdraws its question and rejects; the
   * signal's reason is an `AnsweredElsewhere` carrying that answer.
   */
  ask(request: FeedbackRequest, signal?: AbortSignal): Promise<FeedbackAnswer>;
}

/** Why a channel's question was withdrawn: another channel answered first. */
export class AnsweredElsewhere extends Error {
  constructor(
    readonly answer: FeedbackAnswer,
    readonly where: string,
  ) {
    super(`answered ${where}: ${answer.decision}`);
    this.name = 'AnsweredElsewhere';
  }
}

/** The answer as text for the next prompt and the research log; undefined when there is nothing to pass on. */
export function feedbackText(request: FeedbackRequest, answer: FeedbackAnswer): string | undefined {
  switch (answer.decision) {
    case 'approve':
      return undefined;
    case 'comment':
      return answer.comment.trim() === '' ? undefined : answer.comment.trim();
    case 'stop':
      return answer.comment;
    case 'edit':
      return `Edited by the person:\n${answer.text}`;
    case 'pick':
      return `Picked: ${answer.picked
        .map((id) => request.options?.find((option) => option.id === id)?.label ?? id)
        .join(', ')}`;
    case 'answer':
      return [
        'Answers to your questions:',
        ...answer.answers.map(
          (text, index) => `- ${request.questions?.[index] ?? `Question ${index + 1}`} → ${text}`,
        ),
      ].join('\n');
  }
}
