import type { TaskMetric } from '../../tasks/types.js';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Letters matched in either case: `[aA][cC]…`. */
const anyCase = (text: string) =>
  [...escape(text)]
    .map((char) => (/[a-z]/i.test(char) ? `[${char.toLowerCase()}${char.toUpperCase()}]` : char))
    .join('');

/** Words that may stand before the metric's name: the split or the summary it reports. */
const qualifiers = ['test', 'val', 'valid', 'validation', 'eval', 'final', 'mean', 'avg'];

/**
 * A pattern reading `<name>: <number>` or `<name> = <number>` from a script's output for a
 * metric the plan names: case, spaces, underscores and hyphens in the name do not matter
 * (the plan says "log-loss", the script may print "test_log_loss"), and a split or summary
 * word may stand before it (`test`, `val`, `final`, `mean`…); any other word joined to the
 * name makes another metric (`no_decay_accuracy` is not `accuracy`). One capture group, as
 * task.json metrics have.
 */
export function metricPattern(name: string): string {
  const words = name
    .trim()
    .split(/[\s_-]+/)
    .filter((word) => word !== '')
    .map(anyCase);
  const qualifier = `(?:(?:${qualifiers.map(anyCase).join('|')})[\\s_-]*)?`;
  return `(?<![\\w-])${qualifier}${words.join('[\\s_-]*')}\\s*[:=]\\s*([-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?)`;
}

/** What `metricPattern` reads, in words: how the experiment's agent is told it. */
export function metricPatternInWords(name: string): string {
  const words = name
    .trim()
    .split(/[\s_-]+/)
    .filter((word) => word !== '');
  const shown = name.trim();
  const joined =
    words.length > 1
      ? ' the case of its letters and whether its words are joined by spaces, "_" or "-" do not matter,'
      : ' the case of its letters does not matter,';
  return `the number in the last \`${shown}: <number>\` (or \`${shown} = <number>\`) the output prints;${joined} and one of ${qualifiers.join(', ')} may come first (\`test_${shown}: 0.91\`), but no other word (\`other_${shown}\` is another metric)`;
}

export function planMetric(metric: { name: string; direction: 'max' | 'min' }): TaskMetric {
  return {
    name: metric.name,
    pattern: metricPattern(metric.name),
    goal: metric.direction,
    inWords: metricPatternInWords(metric.name),
  };
}
