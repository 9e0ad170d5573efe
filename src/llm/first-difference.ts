import type { RoleName, StoredFile, StoredMessage } from './types.js';

/** The parts of a request a replay must match. */
export interface ComparableRequest {
  role: RoleName;
  system?: string;
  messages: StoredMessage[];
}

export interface Difference {
  /** e.g. `messages[1].content, character 412`. */
  where: string;
  recorded: string;
  live: string;
}

const excerptRadius = 20;

function excerpt(text: string, index: number): string {
  const start = Math.max(0, index - excerptRadius);
  const end = Math.min(text.length, index + excerptRadius);
  const body = JSON.stringify(text.slice(start, end)).slice(1, -1);
  return `"${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}"`;
}

/**
 * Text that legitimately differs between a recording and its replay: numbers (timings,
 * sizes, floating-point output of the scripts the model ran, which vary between
 * machines) and run folder names. Replay compares requests with these masked, so a
 * changed prompt still fails while a slower machine does not.
 */
const volatile =
  /\b\d{8}-\d{6}-[a-z0-9-]*-[0-9a-f]{6}\b|[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?/g;

/** The text with every volatile span replaced by `#`. */
export function maskVolatile(text: string): string {
  return text.replace(volatile, '#');
}

function textDifference(path: string, recorded: string, live: string): Difference | undefined {
  if (recorded === live) return undefined;
  const maskedRecorded = maskVolatile(recorded);
  const maskedLive = maskVolatile(live);
  if (maskedRecorded === maskedLive) return undefined;
  let index = 0;
  while (
    index < maskedRecorded.length &&
    index < maskedLive.length &&
    maskedRecorded[index] === maskedLive[index]
  ) {
    index += 1;
  }
  return {
    where: `${path}, character ${index + 1} (numbers masked)`,
    recorded: excerpt(maskedRecorded, index),
    live: excerpt(maskedLive, index),
  };
}

/** The first place where a live request departs from the recorded one, or undefined. */
export function firstDifference(
  recorded: ComparableRequest,
  live: ComparableRequest,
): Difference | undefined {
  if (recorded.role !== live.role) {
    return { where: 'role', recorded: `"${recorded.role}"`, live: `"${live.role}"` };
  }
  if ((recorded.system === undefined) !== (live.system === undefined)) {
    const show = (system: string | undefined): string =>
      system === undefined ? 'no system prompt' : excerpt(system, 0);
    return { where: 'system', recorded: show(recorded.system), live: show(live.system) };
  }
  const system = textDifference('system', recorded.system ?? '', live.system ?? '');
  if (system !== undefined) return system;
  const shared = Math.min(recorded.messages.length, live.messages.length);
  for (let index = 0; index < shared; index += 1) {
    const before = recorded.messages[index];
    const now = live.messages[index];
    if (before === undefined || now === undefined) break;
    if (before.role !== now.role) {
      return {
        where: `messages[${index}].role`,
        recorded: `"${before.role}"`,
        live: `"${now.role}"`,
      };
    }
    const content = textDifference(`messages[${index}].content`, before.content, now.content);
    if (content !== undefined) return content;
    const files = fileDifference(`messages[${index}].files`, before.files ?? [], now.files ?? []);
    if (files !== undefined) return files;
  }
  if (recorded.messages.length !== live.messages.length) {
    const count = (messages: StoredMessage[]): string =>
      messages.length === 1 ? '1 message' : `${messages.length} messages`;
    return {
      where: `messages (count)`,
      recorded: count(recorded.messages),
      live: count(live.messages),
    };
  }
  return undefined;
}

const describeFile = (file: StoredFile | undefined): string =>
  file === undefined
    ? 'no file'
    : `${file.mediaType} ${file.filename ?? '(unnamed)'}, ${file.size} bytes, sha256 ${file.sha256.slice(0, 12)}…`;

/** Files must be the same bytes (by hash), in the same order; names may differ. */
function fileDifference(
  path: string,
  recorded: StoredFile[],
  live: StoredFile[],
): Difference | undefined {
  const count = Math.max(recorded.length, live.length);
  for (let index = 0; index < count; index += 1) {
    const before = recorded[index];
    const now = live[index];
    if (
      before?.sha256 !== now?.sha256 ||
      before?.mediaType !== now?.mediaType ||
      before?.size !== now?.size
    ) {
      return {
        where: `${path}[${index}]`,
        recorded: describeFile(before),
        live: describeFile(now),
      };
    }
  }
  return undefined;
}
