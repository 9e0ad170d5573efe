import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSuite } from '../../../src/eval/suite/load-suite.js';
import { planRuns } from '../../../src/eval/suite/plan-runs.js';

function suiteFile(text: string, name = 'suite.yaml'): string {
  const base = mkdtempSync(join(tmpdir(), 'codify-suite-'));
  mkdirSync(join(base, 'task-a'));
  mkdirSync(join(base, 'rec'));
  writeFileSync(join(base, 'paper.md'), '# A paper\n');
  writeFileSync(join(base, name), text);
  return join(base, name);
}

describe('loadSuite', () => {
  it('reads a YAML suite, fills the spec placeholders and resolves replay paths from the suite', () => {
    const file = suiteFile(`
items:
  - task: task-a
    human_minutes: 90
  - paper: paper.md
    name: the-paper
strategies: [agent, single-call]
models:
  - name: rec
    model: replay:rec/{item}-{strategy}-{trial}.jsonl
  - name: hosted
    model: openai:gpt-4o-mini
    roles: { worker: openai:gpt-4o }
trials: 2
`);
    const suite = loadSuite(file);
    const dir = join(file, '..');
    expect(suite.items.map((item) => item.name)).toEqual(['task-a', 'the-paper']);
    const rec = suite.models[0];
    expect(rec?.specsFor('task-a', 'single-call', 2).planner).toEqual([
      `replay:${join(dir, 'rec/task-a-single-call-2.jsonl')}`,
    ]);
    const hosted = suite.models[1]?.specsFor('task-a', 'agent', 1);
    expect(hosted?.worker).toBe('openai:gpt-4o');
    expect(hosted?.summarizer).toBe('openai:gpt-4o-mini');
    const keys = planRuns(suite, '/evals/x').map((run) => run.key);
    // 1 task × 2 strategies × 2 models × 2 trials + 1 paper × 2 models × 2 trials
    expect(keys).toHaveLength(12);
    expect(keys).toContain('the-paper/paper/hosted/trial-2');
    expect(keys).toContain('task-a/single-call/rec/trial-1');
  });

  it('reads explore items with their options and defaults, run as ITEM/explore', () => {
    const file = suiteFile(`
items:
  - explore: paper.md
    name: wine
    ideas: 3
    run: top:2
    code: task-a
    max_steps: 4
    max_seeds: 3
    margin: 0.01
  - explore: [paper.md]
models:
  - name: m
    model: openai:x
    runs: { wine/explore: "openai:y" }
`);
    const suite = loadSuite(file);
    const dir = join(file, '..');
    expect(suite.items[0]).toEqual({
      kind: 'explore',
      name: 'wine',
      papers: [join(dir, 'paper.md')],
      ideas: 3,
      reviewers: 3,
      refineRounds: 1,
      budgetMinutes: 10,
      gpu: false,
      experiments: { select: 'top:2', codeDir: join(dir, 'task-a'), maxSteps: 4, maxSeeds: 3 },
      margin: 0.01,
    });
    // A paper named paper.md is named after its folder.
    expect(suite.items[1]).toMatchObject({ kind: 'explore', ideas: 5 });
    expect(suite.items[1]).not.toHaveProperty('experiments');
    expect(suite.models[0]?.specsFor('wine', 'explore', 1).planner).toEqual(['openai:y']);
    expect(planRuns(suite, '/evals/x').map((run) => run.key)).toEqual([
      'wine/explore/m/trial-1',
      `${suite.items[1]?.name ?? ''}/explore/m/trial-1`,
    ]);
  });

  it("judges by PaperCoder's protocol unless the judge: section names today's cuts", () => {
    const items = `items:\n  - paper: paper.md\n    addendum: addendum.md\nmodels:\n  - name: m\n    model: openai:gpt-4o-mini\n`;
    const file = suiteFile(`${items}judge: {}\n`);
    writeFileSync(join(file, '..', 'addendum.md'), 'Use alpha 0.2.\n');
    const suite = loadSuite(file);
    expect(suite.judge).toEqual({
      enabled: true,
      samples: 8,
      temperature: 1,
      includeDocs: false,
    });
    expect(suite.items[0]).toMatchObject({ addendum: join(file, '..', 'addendum.md') });
    const old = suiteFile(
      `items:\n  - paper: paper.md\nmodels:\n  - name: m\n    model: openai:gpt-4o-mini\njudge: { samples: 1, temperature: 0.2, part_chars: 40000, paper_chars: 60000, reference_chars: 20000, include_docs: true, context_tokens: 32000 }\n`,
    );
    expect(loadSuite(old).judge).toEqual({
      enabled: true,
      samples: 1,
      temperature: 0.2,
      partChars: 40_000,
      paperChars: 60_000,
      referenceChars: 20_000,
      includeDocs: true,
      contextTokens: 32_000,
    });
    expect(() => loadSuite(suiteFile(items.replace('addendum.md', 'nowhere.md')))).toThrow(
      /no addendum at .*nowhere\.md/,
    );
  });

  it('reads JSON suites too', () => {
    const file = suiteFile(
      JSON.stringify({ items: [{ task: 'task-a' }], models: [{ name: 'm', model: 'openai:x' }] }),
      'suite.json',
    );
    expect(loadSuite(file).strategies).toEqual(['agent']);
  });

  const cases: [string, string, RegExp][] = [
    [
      'an unknown key',
      'items: [{task: task-a, hurry: true}]\nmodels: [{name: m, model: openai:x}]',
      /suite\.yaml: items\[0\]: unknown key "hurry"/,
    ],
    [
      'a task folder that does not exist',
      'items: [{task: nowhere}]\nmodels: [{name: m, model: openai:x}]',
      /suite\.yaml: items\[0\]\.task: no task folder at .*nowhere/,
    ],
    [
      'an unknown strategy',
      'items: [{task: task-a}]\nstrategies: [agent, guess]\nmodels: [{name: m, model: openai:x}]',
      /suite\.yaml: strategies\[1\]: /,
    ],
    [
      'an item with neither task nor paper',
      'items: [{name: x}]\nmodels: [{name: m, model: openai:x}]',
      /items\[0\]: give task: \(a task folder\), paper: \(a paper file\) or explore: /,
    ],
    [
      'an item that is both a paper and an exploration',
      'items: [{paper: paper.md, explore: paper.md}]\nmodels: [{name: m, model: openai:x}]',
      /items\[0\]: give one of task:, paper: or explore:, not paper: and explore:/,
    ],
    [
      'an exploration of a paper that does not exist',
      'items: [{explore: [paper.md, gone.md]}]\nmodels: [{name: m, model: openai:x}]',
      /items\[0\]\.explore\[1\]: no paper at .*gone\.md/,
    ],
    [
      'an exploration with run: but no code:',
      'items: [{explore: paper.md, run: "top:2"}]\nmodels: [{name: m, model: openai:x}]',
      /items\[0\]\.code: experiments need both run: .* and code: /,
    ],
    [
      'an exploration with a bad run: selection',
      'items: [{explore: paper.md, run: best, code: task-a}]\nmodels: [{name: m, model: openai:x}]',
      /items\[0\]\.run: best: give top:K, a number K, or idea ids such as I1,I3/,
    ],
    [
      'an exploration whose code: is not a folder',
      'items: [{explore: paper.md, run: 1, code: paper.md}]\nmodels: [{name: m, model: openai:x}]',
      /items\[0\]\.code: no folder at .*paper\.md/,
    ],
    [
      'an exploration with notes that do not exist',
      'items: [{explore: paper.md, notes: notes.md}]\nmodels: [{name: m, model: openai:x}]',
      /items\[0\]\.notes: nothing at .*notes\.md/,
    ],
    [
      'an exploration with too many ideas',
      'items: [{explore: paper.md, ideas: 50}]\nmodels: [{name: m, model: openai:x}]',
      /items\[0\]\.ideas: /,
    ],
    [
      'an exploration with max_steps but no experiments',
      'items: [{explore: paper.md, max_steps: 3}]\nmodels: [{name: m, model: openai:x}]',
      /items\[0\]\.max_steps: max_steps: is for experiments/,
    ],
    [
      'an exploration with max_seeds but no experiments',
      'items: [{explore: paper.md, max_seeds: 3}]\nmodels: [{name: m, model: openai:x}]',
      /items\[0\]\.max_seeds: max_seeds: is for experiments/,
    ],
    [
      'a model without a spec for a run',
      'items: [{task: task-a}]\nmodels: [{name: m, runs: {"task-a/single-call": "openai:x"}}]',
      /models\[0\]: no model for task-a\/agent/,
    ],
    [
      'a runs key naming no run',
      'items: [{task: task-a}]\nmodels: [{name: m, model: openai:x, runs: {"task-b/agent": "openai:y"}}]',
      /models\[0\]\.runs\.task-b\/agent: names no run of this suite/,
    ],
    [
      'a bad model spec',
      'items: [{task: task-a}]\nmodels: [{name: m, model: nonsense}]',
      /models\[0\]\.model: /,
    ],
    [
      'two models with one name',
      'items: [{task: task-a}]\nmodels: [{name: m, model: openai:x}, {name: m, model: openai:y}]',
      /models\[1\]\.name: "m" is used twice/,
    ],
    [
      'trials of zero',
      'items: [{task: task-a}]\nmodels: [{name: m, model: openai:x}]\ntrials: 0',
      /trials: /,
    ],
    ['invalid YAML', 'items: [\n', /suite\.yaml is not valid YAML/],
    [
      'a reference repository that is not a folder',
      'items: [{paper: paper.md, reference: paper.md}]\nmodels: [{name: m, model: openai:x}]',
      /items\[0\]\.reference: no reference repository folder at/,
    ],
  ];
  for (const [what, text, message] of cases) {
    it(`names the file and key path for ${what}`, () => {
      expect(() => loadSuite(suiteFile(text))).toThrow(message);
    });
  }

  it('says when the suite file is missing', () => {
    expect(() => loadSuite('/no/such/suite.yaml')).toThrow(
      /Suite not found: \/no\/such\/suite\.yaml/,
    );
  });
});
