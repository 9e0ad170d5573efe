import { renderConfigYaml } from './config-yaml.js';
import type { Plan } from './planning.js';
import type { ConfigValue, Experiment } from './schemas.js';

/** The configuration file that runs an experiment: config.yaml itself when nothing changes. */
export function experimentConfigPath(experiment: Experiment): string {
  return experiment.overrides.length === 0 ? 'config.yaml' : `configs/${experiment.id}.yaml`;
}

export function experimentCommand(plan: Plan, experiment: Experiment): string | undefined {
  if (experiment.leftOut !== undefined) return undefined;
  return `python3 ${plan.logic.entryPoint} --config ${experimentConfigPath(experiment)}`;
}

const shown = (value: ConfigValue): string => JSON.stringify(value);

/**
 * configs/<id>.yaml for each experiment that changes config.yaml: the full configuration
 * with the experiment's overrides, each marked, so it runs on the paper's real setting.
 */
export function experimentConfigs(plan: Plan): { path: string; content: string }[] {
  return plan.experiments
    .filter((experiment) => experiment.leftOut === undefined && experiment.overrides.length > 0)
    .map((experiment) => {
      const yaml = renderConfigYaml({ ...plan.config, smokeOverrides: experiment.overrides }, true)
        .replace(
          /smoke override; paper: /g,
          `${experiment.id} override; config.yaml's value from the paper: `,
        )
        .replace(
          /smoke override; not in config\.yaml/g,
          `${experiment.id} override; not in config.yaml`,
        );
      const header = [
        `# ${experiment.source}: ${experiment.description}`,
        `# config.yaml with the overrides of this experiment (marked ${experiment.id}).`,
        ...(experiment.needs === undefined ? [] : [`# Needs: ${experiment.needs}`]),
      ].join('\n');
      // renderConfigYaml opens with the smoke configuration's comment; this file is no smoke run.
      const body = yaml.replace(/^(#[^\n]*\n)+/, '');
      return { path: `configs/${experiment.id}.yaml`, content: `${header}\n${body}` };
    });
}

/** The experiments as a design section, so analysis and generation build code that runs each. */
export function experimentsDesign(plan: Plan): string {
  if (plan.experiments.length === 0) return 'No experiments listed.';
  return plan.experiments
    .map((experiment) => {
      const head = `- ${experiment.id} (${experiment.source}): ${experiment.description}`;
      if (experiment.leftOut !== undefined) return `${head} — left out: ${experiment.leftOut}`;
      const overrides =
        experiment.overrides.length === 0
          ? 'config.yaml as it is'
          : `${experimentConfigPath(experiment)} sets ${experiment.overrides.map((item) => `${item.key} = ${shown(item.value)}`).join(', ')}`;
      const needs = experiment.needs === undefined ? '' : `; needs ${experiment.needs}`;
      return `${head} — ${overrides}${needs}`;
    })
    .join('\n');
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();

/**
 * The README's map of the paper's experiments: each one's command and configuration, what
 * it needs, the smoke run beside them (never instead of them), and what is left out and why.
 */
export function experimentsReadmeSection(plan: Plan, smokeCommand: string): string {
  const runnable = plan.experiments.filter((experiment) => experiment.leftOut === undefined);
  const leftOut = plan.experiments.filter((experiment) => experiment.leftOut !== undefined);
  const rows = runnable.map(
    (experiment) =>
      `| ${cell(experiment.source)} | ${cell(experiment.description)} | \`${experimentCommand(plan, experiment) ?? ''}\` | ${cell(experiment.needs ?? '')} |`,
  );
  const lines = [
    "## The paper's experiments",
    '',
    "Each experiment of the paper and the command that runs it on the paper's real setting",
    `(\`configs/<id>.yaml\` is \`config.yaml\` with the experiment's overrides, marked in the file).`,
    '',
    '| in the paper | experiment | command | needs |',
    '|---|---|---|---|',
    ...rows,
    '',
    `The smoke run (\`${smokeCommand}\`) checks the code offline on a tiny stand-in for the data;`,
    'it stands beside these experiments and reproduces none of them.',
  ];
  if (leftOut.length > 0)
    lines.push(
      '',
      'Left out of this repository:',
      '',
      ...leftOut.map(
        (experiment) =>
          `- ${experiment.source} (${experiment.description}): ${experiment.leftOut ?? ''}`,
      ),
    );
  return `${lines.join('\n')}\n`;
}
