/**
 * What the planner sees of its research log: each step once. Steps shown in full (the
 * recent ones) are left out of the log; older entries are kept whole while they fit a
 * budget, and what does not fit is condensed into blocks that cover twice as many steps the
 * further back they go, each of a fixed size, so the prompt grows with the logarithm of
 * the number of steps, not linearly.
 */

export interface PlannerMemoryOptions {
  /** Characters of older entries kept whole, newest first. */
  wholeBudget: number;
  /** Characters of each condensed block. */
  blockChars: number;
}

export const defaultPlannerMemory: PlannerMemoryOptions = { wholeBudget: 6000, blockChars: 600 };

const stepHeading = /^## Step (\d+)\b/;

/** The step an entry is about (`## Step 7: …`), or undefined for other entries (comments). */
export function entryStep(entry: string): number | undefined {
  const match = stepHeading.exec(entry);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/** The entry without its heading, on one line. */
function gist(entry: string): string {
  const body = entry.split('\n').slice(1).join(' ').replace(/\s+/g, ' ').trim();
  return body === '' ? entry.trim() : body;
}

function clip(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, Math.max(0, limit - 1))}…`;
}

/** One condensed block: `## Steps 3–10 (condensed)` and a clipped gist of each entry. */
function condense(entries: readonly string[], blockChars: number): string {
  const steps = entries.map(entryStep).filter((step) => step !== undefined);
  const first = steps.at(0);
  const last = steps.at(-1);
  const heading =
    first === undefined || last === undefined
      ? '## Earlier notes (condensed)'
      : first === last
        ? `## Step ${first} (condensed)`
        : `## Steps ${first}–${last} (condensed)`;
  const each = Math.max(40, Math.floor(blockChars / entries.length));
  const lines: string[] = [];
  let used = 0;
  // newest first, while they fit: a block stays the same size however many steps it covers
  for (const entry of [...entries].reverse()) {
    const step = entryStep(entry);
    const line = `- ${step === undefined ? '' : `${step}: `}${clip(gist(entry), each)}`;
    if (lines.length > 0 && used + line.length > blockChars) break;
    lines.unshift(line);
    used += line.length;
  }
  const left = entries.length - lines.length;
  if (left > 0)
    lines.unshift(`- (${left} earlier step${left === 1 ? '' : 's'}: see research_log.md)`);
  return [heading, ...lines].join('\n');
}

/**
 * The log entries to show the planner: entries of the steps it sees in full are dropped;
 * the rest kept whole, newest first, up to the budget; older ones condensed.
 */
export function plannerLog(
  entries: readonly string[],
  recentSteps: readonly number[],
  options: PlannerMemoryOptions = defaultPlannerMemory,
): string[] {
  const recent = new Set(recentSteps);
  const older = entries.filter((entry) => {
    const step = entryStep(entry);
    return step === undefined || !recent.has(step);
  });
  let used = 0;
  let keepFrom = older.length;
  while (keepFrom > 0) {
    const size = older[keepFrom - 1]?.length ?? 0;
    if (used + size > options.wholeBudget) break;
    used += size;
    keepFrom -= 1;
  }
  const kept = older.slice(keepFrom);
  const blocks: string[] = [];
  let end = keepFrom;
  let size = 2;
  while (end > 0) {
    const start = Math.max(0, end - size);
    blocks.unshift(condense(older.slice(start, end), options.blockChars));
    end = start;
    size *= 2;
  }
  return [...blocks, ...kept];
}

/** Characters the planner's history grows to before it is condensed once and grows again. */
export const defaultHistoryLimit = 24_000;

/**
 * The research log entries that have left the steps shown in full: every entry before the
 * first entry of a step still shown in full (a human comment comes in with the steps around it).
 */
function olderEntries(entries: readonly string[], recentSteps: readonly number[]): string[] {
  const recent = new Set(recentSteps);
  const first = entries.findIndex((entry) => {
    const step = entryStep(entry);
    return step !== undefined && recent.has(step);
  });
  return first === -1 ? [...entries] : entries.slice(0, first);
}

/**
 * The planner's history: one text per older step, in order, only ever appended to, so the
 * history of one step is a byte prefix of the next step's and a provider's prefix cache
 * serves it. When appending would pass `limit` characters the history so far is condensed
 * once (into the whole-and-condensed form of `plannerLog`) and grows from there: the same
 * entries always give the same history, so a resumed run sends the same prefix.
 */
export function plannerHistory(
  entries: readonly string[],
  recentSteps: readonly number[],
  limit: number = defaultHistoryLimit,
  options: PlannerMemoryOptions = defaultPlannerMemory,
): string[] {
  const older = olderEntries(entries, recentSteps);
  let history: string[] = [];
  let size = 0;
  for (const [index, entry] of older.entries()) {
    if (history.length > 0 && size + entry.length > limit) {
      history = plannerLog(older.slice(0, index), [], options);
      size = history.reduce((sum, text) => sum + text.length, 0);
    }
    history.push(entry);
    size += entry.length;
  }
  return history;
}

/**
 * The last step folded into the research log when `stepsDone` steps are done: steps after
 * it are shown in full. Steps are folded `shortTerm` at a time, once `2 * shortTerm` are
 * shown, so between two folds the steps in full are only appended to (a prefix cache serves
 * them) and the planner always sees at least the last `shortTerm` in full.
 */
export function lastFoldedStep(stepsDone: number, shortTerm: number): number {
  if (shortTerm <= 0) return stepsDone;
  return Math.max(0, shortTerm * Math.floor((stepsDone - shortTerm) / shortTerm));
}
