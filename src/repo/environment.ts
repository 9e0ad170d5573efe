import type { ModelCaller } from '../llm/types.js';
import { loadPrompt } from '../prompts/load-prompt.js';
import { overallPlanSection, type Plan } from './planning.js';
import { stableSystem, type SharedContext } from './stable-context.js';
import { askValidated } from './structured-answer.js';

/** The smoke command and the full reproduction, as the README and reproduce.sh state them. */
export function smokeCommand(plan: Plan): string {
  return `python3 ${plan.logic.entryPoint} --config config_smoke.yaml`;
}

export function reproduceScript(plan: Plan): string {
  return [
    '#!/usr/bin/env bash',
    '# Reproduces the paper with the settings of config.yaml.',
    '# Set PYTHON to choose the interpreter; pass --smoke for the offline smoke run',
    '# (config_smoke.yaml: a tiny stand-in for the data, under a minute on a CPU).',
    'set -euo pipefail',
    'cd "$(dirname "$0")"',
    'PYTHON="${PYTHON:-python3}"',
    'CONFIG=config.yaml',
    'if [ "${1:-}" = "--smoke" ]; then CONFIG=config_smoke.yaml; fi',
    `"$PYTHON" ${plan.logic.entryPoint} --config "$CONFIG"`,
    '',
  ].join('\n');
}

/**
 * The generated repository's README, written by the model from the code it describes. Its
 * system prompt is the file-writing calls' (the design summary and both configs), so a
 * provider's cache serves it; the code as it stands after the self-check follows.
 */
export async function writeReadme(
  models: ModelCaller,
  plan: Plan,
  context: SharedContext,
  written: { title: string; code: string },
  options: { maxAttempts?: number } = {},
): Promise<string> {
  const result = await askValidated(
    models,
    {
      role: 'planner',
      system: stableSystem(context),
      messages: [
        {
          role: 'user',
          content: loadPrompt('repo-readme', {
            title: written.title,
            code: written.code,
            smoke: smokeCommand(plan),
            unclear: overallPlanSection(plan.overall, 'Unclear') || '(the plan names nothing)',
          }),
        },
      ],
      label: 'readme',
      expect: 'The README.md, Markdown only.',
    },
    (text) => {
      const body = text.replace(/^```(?:markdown|md)?\n([\s\S]*)\n```\s*$/, '$1').trim();
      if (!/^#\s/m.test(body)) return 'the README needs a top-level `# ` heading';
      // A reader must learn which configuration reproduces the paper and which only checks the code.
      const missing = ['config.yaml', 'config_smoke.yaml', 'reproduce.sh'].filter(
        (name) => !new RegExp(`(^|[^\\w])${name.replace('.', '\\.')}`).test(body),
      );
      if (missing.length > 0)
        return `the README does not mention ${missing.join(', ')}; say which configuration is the full reproduction on the real data and which the offline smoke run, and how to run each`;
      return { value: `${body}\n` };
    },
    options,
  );
  return result.value;
}
