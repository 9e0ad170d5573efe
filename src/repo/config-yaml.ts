import { Document, isCollection, isMap, isNode, isScalar, type ScalarTag } from 'yaml';
import type { ConfigAnswer, ConfigValue } from './schemas.js';

const squash = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, ' ')
    .trim();

/**
 * Entries given as stated by the paper whose evidence is not a quote of it: they cannot be
 * traced to it. Implementation choices (a reason, no quote) are never untraced.
 */
export function untracedEntries(config: ConfigAnswer, paperText: string): string[] {
  const paper = squash(paperText);
  return config.entries
    .filter((entry) => entry.evidence !== undefined && !paper.includes(squash(entry.evidence)))
    .map((entry) => entry.key);
}

/** The entries the paper states (with a quote), as opposed to implementation choices. */
export const quotedEntries = (config: ConfigAnswer) =>
  config.entries.filter((entry) => entry.evidence !== undefined);

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

function setPath(target: Record<string, unknown>, key: string, value: ConfigValue): void {
  const parts = key.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    if (typeof next === 'object' && next !== null && !Array.isArray(next)) {
      node = next as Record<string, unknown>;
    } else {
      const created: Record<string, unknown> = {};
      node[part] = created;
      node = created;
    }
  }
  node[parts[parts.length - 1] ?? key] = value;
}

/**
 * Numbers in exponent form as every YAML reader reads them. JavaScript prints 1e-9, which
 * YAML 1.1 readers such as PyYAML take for a string (their float needs a dot and a signed
 * exponent), so a paper's `adam_eps` would reach the code as "1e-9": write 1.0e-09.
 */
export function yamlExponentNumber(value: number): string {
  const [mantissa = '', exponent = '0'] = String(value).split(/e/i);
  const sign = exponent.startsWith('-') ? '-' : '+';
  const digits = exponent.replace(/^[-+]/, '').padStart(2, '0');
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}e${sign}${digits}`;
}

const exponentFloat: ScalarTag = {
  identify: (value) => typeof value === 'number' && /e/i.test(String(value)),
  default: true,
  tag: 'tag:yaml.org,2002:float',
  test: /^[-+]?[0-9][0-9_]*\.[0-9]*[eE][-+][0-9]+$/,
  resolve: (text) => Number.parseFloat(text.replace(/_/g, '')),
  stringify: ({ value }) => yamlExponentNumber(Number(value)),
};

/**
 * config.yaml: only values the paper states, each with the quote it comes from beside it.
 * With `quotes: false`, the view the code's writers read: the same keys and values, the
 * reasons of implementation choices kept and the paper's quotes left out (each file's
 * request holds the paper's sections it implements).
 */
export function renderConfigYaml(
  config: ConfigAnswer,
  smoke = false,
  options: { quotes?: boolean } = {},
): string {
  const quotes = options.quotes ?? true;
  const document = new Document(configTree(config, smoke), {
    customTags: (tags) => [exponentFloat, ...tags],
  });
  const overridden = new Set(smoke ? config.smokeOverrides.map((override) => override.key) : []);
  for (const entry of config.entries) {
    const path = entry.key.split('.');
    const node = document.getIn(path, true);
    if (!isNode(node)) continue;
    if (!quotes && entry.evidence !== undefined) continue;
    const quote =
      entry.evidence === undefined
        ? `implementation choice (the paper does not state it): ${oneLine(entry.choice ?? '')}`
        : `paper: "${oneLine(entry.evidence)}"`;
    // An overridden choice keeps no reason: the reason is for config.yaml's value, not this one.
    const comment = !overridden.has(entry.key)
      ? ` ${quote}`
      : entry.evidence === undefined
        ? ' smoke override (in config.yaml an implementation choice)'
        : ` smoke override; ${quote}`;
    // A list or mapping spans lines: its quote goes on the line above its key.
    const parent = path.length > 1 ? document.getIn(path.slice(0, -1), true) : document.contents;
    const pair = isMap(parent)
      ? parent.items.find((item) => isScalar(item.key) && item.key.value === path.at(-1))
      : undefined;
    if (isCollection(node) && pair !== undefined && isScalar(pair.key))
      pair.key.commentBefore = comment;
    else node.comment = comment;
  }
  // Keys only the smoke run sets (a sample size, a stand-in data source) are marked too.
  const stated = new Set(config.entries.map((entry) => entry.key));
  for (const key of overridden) {
    const node = document.getIn(key.split('.'), true);
    if (!stated.has(key) && isNode(node) && !isCollection(node))
      node.comment = ' smoke override; not in config.yaml';
  }
  document.commentBefore = smoke
    ? ' Smoke-test configuration: config.yaml with the overrides marked below, so the code runs\n offline on a CPU in under a minute on a tiny stand-in for the data.'
    : !quotes
      ? ' The full reproduction (the file quotes the paper beside each value it states; left out\n here). A comment marks an implementation choice, with its reason.'
      : config.entries.every((entry) => entry.evidence !== undefined)
        ? ' The full reproduction. Every value below is stated in the paper; the comment beside it\n quotes where.'
        : ' The full reproduction. The comment beside each value quotes where the paper states it, or\n marks it an implementation choice (a value the code needs that the paper does not state)\n with the reason.';
  return document.toString();
}

/** The nested form of the config, with smoke overrides applied when asked. */
export function configTree(config: ConfigAnswer, smoke: boolean): Record<string, unknown> {
  const tree: Record<string, unknown> = {};
  for (const entry of config.entries) setPath(tree, entry.key, entry.value);
  if (smoke)
    for (const override of config.smokeOverrides) setPath(tree, override.key, override.value);
  return tree;
}
