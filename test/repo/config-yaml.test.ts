import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  configTree,
  renderConfigYaml,
  untracedEntries,
  yamlExponentNumber,
} from '../../src/repo/config-yaml.js';
import { configSchema } from '../../src/repo/schemas.js';
import { describeProblem } from '../../src/repo/structured-answer.js';

/** The YAML as PyYAML (what generated repositories read it with) loads it, as JSON. */
function loadWithPyYaml(text: string): unknown {
  const json = execFileSync(
    '/usr/bin/python3',
    ['-c', 'import json, sys, yaml; print(json.dumps(yaml.safe_load(sys.stdin.read())))'],
    { input: text, encoding: 'utf8' },
  );
  return JSON.parse(json) as unknown;
}

// A configuration answer as a model gives it, with a list and a nested value.
const answer = {
  entries: [
    { key: 'optimizer.adam_eps', value: 1e-9, evidence: 'epsilon of 1e-9' },
    { key: 'optimizer.betas', value: [0.9, 0.98], evidence: 'beta_1 = 0.9 and beta_2 = 0.98' },
    { key: 'optimizer.lr', value: 0.0007, evidence: 'learning rate of 0.0007' },
    { key: 'training.tokens', value: 1e21, evidence: 'about 1e21 tokens' },
    { key: 'training.warmup_steps', value: 4000, evidence: 'warmup_steps = 4000' },
    { key: 'data.name', value: 'wmt14', evidence: 'WMT 2014 English-German' },
    {
      key: 'model.sizes',
      value: { base: { layers: 6, dropout: 0.1 }, big: { layers: 6, dropout: 0.3 } },
      evidence: 'Table 3',
    },
    { key: 'model.label_smoothing', value: 1e-1, evidence: 'label smoothing of 0.1' },
  ],
  smokeOverrides: [
    { key: 'training.warmup_steps', value: 10 },
    { key: 'data.max_samples', value: 8 },
    { key: 'model.sizes', value: { base: { layers: 1, dropout: 0.1 } } },
  ],
};

describe('config.yaml', () => {
  it('writes exponent numbers so that YAML 1.1 readers see numbers', () => {
    expect(yamlExponentNumber(1e-9)).toBe('1.0e-09');
    expect(yamlExponentNumber(2.5e-12)).toBe('2.5e-12');
    expect(yamlExponentNumber(1e21)).toBe('1.0e+21');
  });

  it('accepts lists and nested values in the configuration answer', () => {
    const text = `\`\`\`json\n${JSON.stringify(answer)}\n\`\`\``;
    const outcome = describeProblem(text, configSchema);
    expect(typeof outcome).not.toBe('string');
    // An object inside a list of numbers is fine too; a function-like string stays a string.
    expect(
      describeProblem(
        JSON.stringify({
          entries: [{ key: 'a', value: [[1, 2], { b: null }], evidence: 'abc' }],
          smokeOverrides: [],
        }),
        configSchema,
      ),
    ).toMatchObject({ value: { entries: [{ value: [[1, 2], { b: null }] }] } });
  });

  it("gives the code's writers the same values without the paper's quotes, the choices' reasons kept", () => {
    const config = configSchema.parse({
      ...answer,
      entries: [...answer.entries, { key: 'training.seed', value: 0, choice: 'any fixed seed' }],
    });
    const view = renderConfigYaml(config, false, { quotes: false });
    expect(loadWithPyYaml(view)).toEqual(loadWithPyYaml(renderConfigYaml(config)));
    expect(view).not.toContain('paper: "');
    expect(view).toContain(
      'seed: 0 # implementation choice (the paper does not state it): any fixed seed',
    );
    expect(view).toContain('left out\n# here)');
  });

  it('is read by PyYAML as the very values of the answer, full and smoke', () => {
    const config = configSchema.parse(answer);
    const full = renderConfigYaml(config);
    expect(full).toContain('adam_eps: 1.0e-09');
    expect(full).not.toMatch(/: 1e-9/);
    expect(loadWithPyYaml(full)).toEqual(configTree(config, false));
    const loaded = loadWithPyYaml(full) as { optimizer: { adam_eps: unknown } };
    expect(typeof loaded.optimizer.adam_eps).toBe('number');
    const smoke = renderConfigYaml(config, true);
    expect(loadWithPyYaml(smoke)).toEqual(configTree(config, true));
    expect(loadWithPyYaml(smoke)).toMatchObject({
      training: { warmup_steps: 10, tokens: 1e21 },
      model: { sizes: { base: { layers: 1 } } },
    });
    expect(smoke).toContain('warmup_steps: 10 # smoke override; paper: "warmup_steps = 4000"');
    expect(smoke).toContain('max_samples: 8 # smoke override; not in config.yaml');
    // The quote stays beside each value, as a comment PyYAML skips.
    expect(full).toContain('# paper: "epsilon of 1e-9"');
  });

  it('writes implementation choices with their reason, never drops them as untraced, and takes quote or reason, not both', () => {
    const withChoice = configSchema.parse({
      entries: [
        { key: 'training.lr', value: 0.1, evidence: 'a learning rate of 0.1' },
        {
          key: 'training.batch_size',
          value: 64,
          choice: 'the paper gives no batch size; 64 fits a CPU',
        },
      ],
      smokeOverrides: [{ key: 'training.batch_size', value: 8 }],
    });
    const yaml = renderConfigYaml(withChoice);
    expect(yaml).toContain('lr: 0.1 # paper: "a learning rate of 0.1"');
    expect(yaml).toContain(
      'batch_size: 64 # implementation choice (the paper does not state it): the paper gives no batch size; 64 fits a CPU',
    );
    expect(yaml).toContain('or\n# marks it an implementation choice');
    expect(loadWithPyYaml(yaml)).toEqual({ training: { lr: 0.1, batch_size: 64 } });
    // The smoke value of a choice does not carry config.yaml's reason.
    expect(renderConfigYaml(withChoice, true)).toContain(
      'batch_size: 8 # smoke override (in config.yaml an implementation choice)',
    );
    expect(untracedEntries(withChoice, 'We use a learning rate of 0.1.')).toEqual([]);
    expect(untracedEntries(withChoice, 'Nothing quoted here.')).toEqual(['training.lr']);
    const both = describeProblem(
      '```json\n{"entries": [{"key": "a", "value": 1, "evidence": "a is 1", "choice": "why"}], "smokeOverrides": []}\n```',
      configSchema,
    );
    expect(both).toMatch(/a needs either `evidence`.*or `choice`/);
    const neither = describeProblem(
      '```json\n{"entries": [{"key": "a", "value": 1}], "smokeOverrides": []}\n```',
      configSchema,
    );
    expect(neither).toMatch(/a needs either/);
  });
});
