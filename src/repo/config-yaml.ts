import { Document, isNode } from 'yaml';
import type { ConfigAnswer, ConfigValue } from './schemas.js';

const squash = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, ' ')
    .trim();

/** Entries whose evidence is not a quote of the paper: they cannot be traced to it. */
export function untracedEntries(config: ConfigAnswer, paperText: string): string[] {
  const paper = squash(paperText);
  return config.entries
    .filter((entry) => !paper.includes(squash(entry.evidence)))
    .map((entry) => entry.key);
}

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

/** config.yaml: only values the paper states, each with the quote it comes from beside it. */
export function renderConfigYaml(config: ConfigAnswer, smoke = false): string {
  const document = new Document(configTree(config, smoke));
  const overridden = new Set(smoke ? config.smokeOverrides.map((override) => override.key) : []);
  for (const entry of config.entries) {
    const node = document.getIn(entry.key.split('.'), true);
    if (!isNode(node)) continue;
    const quote = `paper: "${entry.evidence.replace(/\s+/g, ' ').trim()}"`;
    node.comment = overridden.has(entry.key) ? ` smoke override; ${quote}` : ` ${quote}`;
  }
  document.commentBefore = smoke
    ? ' Smoke-test configuration: config.yaml with tiny settings so the code runs in seconds.'
    : ' Every value below is stated in the paper; the comment beside it quotes where.';
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
