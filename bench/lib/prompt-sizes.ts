/**
 * What a recorded session sends to the model, call by call: the characters of the system
 * prompt and the messages, how many repeat the start of an earlier call (the prefix that
 * providers caching prefixes on their own, OpenAI and Google, can serve) and how many lie
 * behind an earlier call's cache mark (what Anthropic serves with codify's marks).
 */
import { readFileSync } from 'node:fs';

export interface RecordedCall {
  call: number;
  role?: string;
  system?: string;
  messages: { role: string; content: string; cacheMark?: boolean }[];
  text: string;
}

export interface CallSize {
  call: number;
  label: string;
  systemChars: number;
  messageChars: number;
  /** Characters at the start of this request that an earlier request began with too. */
  sharedPrefixChars: number;
  /**
   * What Anthropic's cache serves with codify's marks (end of the system prompt, then the
   * messages marked `cacheMark`): the system prompt when an earlier call sent the same one,
   * plus the longest run of messages up to one of an earlier call's marks that this call
   * begins with too.
   */
  markedCacheChars: number;
  /** The system prompt and the messages up to this call's last cache mark: what it caches. */
  markedPrefixChars: number;
}

/**
 * A session's input as Anthropic bills it, in characters at the base rate: what a cache
 * serves at 0.1, what a call writes to the cache (its marked prefix beyond what it read) at
 * 1.25, the rest at 1. It puts sending less and caching more on one scale.
 */
export function billedChars(sizes: readonly CallSize[]): number {
  return sizes.reduce((sum, size) => {
    const total = size.systemChars + size.messageChars;
    const written = Math.max(0, size.markedPrefixChars - size.markedCacheChars);
    return (
      sum + (total - size.markedCacheChars - written) + 0.1 * size.markedCacheChars + 1.25 * written
    );
  }, 0);
}

const serialize = (call: RecordedCall) =>
  [
    call.system ?? '',
    ...call.messages.map((message) => `${message.role}\n${message.content}`),
  ].join('\u0000');

function commonPrefix(first: string, second: string): number {
  const limit = Math.min(first.length, second.length);
  let index = 0;
  while (index < limit && first.charCodeAt(index) === second.charCodeAt(index)) index += 1;
  return index;
}

/**
 * Where a call's cache marks lie among its messages: those it names (the end of a prefix a
 * later call continues); none when it names none (only its system prompt is marked).
 */
function markedEnds(call: RecordedCall): number[] {
  return call.messages.flatMap((message, index) => (message.cacheMark === true ? [index] : []));
}

export function readRecording(path: string): RecordedCall[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as RecordedCall);
}

/** Each call's size and what a prefix cache could serve of it; `label` names a call. */
export function callSizes(
  calls: RecordedCall[],
  label: (call: RecordedCall) => string = (call) => call.role ?? '',
): CallSize[] {
  const seen: string[] = [];
  return calls.map((call, index) => {
    const text = serialize(call);
    const shared = Math.max(0, ...seen.map((earlier) => commonPrefix(earlier, text)));
    seen.push(text);
    const earlier = calls.slice(0, index).filter((other) => other.system === call.system);
    const continued = earlier.flatMap((other) =>
      markedEnds(other)
        .filter(
          (end) =>
            // a conversation continued, or an earlier call's named mark (its history) reached
            (end < call.messages.length - 1 ||
              (end < call.messages.length && other.messages[end]?.cacheMark === true)) &&
            other.messages
              .slice(0, end + 1)
              .every(
                (message, position) =>
                  message.role === call.messages[position]?.role &&
                  message.content === call.messages[position]?.content,
              ),
        )
        .map((end) =>
          other.messages
            .slice(0, end + 1)
            .reduce((sum, message) => sum + message.content.length, 0),
        ),
    );
    const marked =
      earlier.length === 0 ? 0 : (call.system ?? '').length + Math.max(0, ...continued);
    const lastMark = Math.max(-1, ...markedEnds(call));
    const markedPrefix =
      (call.system ?? '').length +
      call.messages
        .slice(0, lastMark + 1)
        .reduce((sum, message) => sum + message.content.length, 0);
    return {
      markedCacheChars: marked,
      markedPrefixChars: markedPrefix,
      call: call.call,
      label: label(call),
      systemChars: (call.system ?? '').length,
      messageChars: call.messages.reduce((sum, message) => sum + message.content.length, 0),
      sharedPrefixChars: shared,
    };
  });
}
