import { longValueChars, sizeOf, variantView } from '../grading/config-variants.js';
import { renderConfigYaml } from './config-yaml.js';
import { experimentsDesign } from './experiments.js';
import type { Plan } from './planning.js';
import type { ConfigValue } from './schemas.js';
import type { SharedContext } from './stable-context.js';

/**
 * The settings the paper's experiments change, one line per key with each value and the
 * experiments that set it: what every file must read, without the whole experiment list.
 */
export function overriddenSettings(plan: Plan): string {
  const byKey = new Map<string, { value: ConfigValue; ids: string[] }[]>();
  for (const experiment of plan.experiments) {
    if (experiment.leftOut !== undefined) continue;
    for (const override of experiment.overrides) {
      const values = byKey.get(override.key) ?? [];
      const shown = JSON.stringify(override.value);
      const same = values.find((item) => JSON.stringify(item.value) === shown);
      if (same === undefined) values.push({ value: override.value, ids: [experiment.id] });
      else same.ids.push(experiment.id);
      byKey.set(override.key, values);
    }
  }
  if (byKey.size === 0) return 'No experiment changes a setting of config.yaml.';
  return [...byKey]
    .map(([key, values]) => {
      // A long list or mapping (an ablation's variants with the paper's numbers) is named by
      // its size here: the entry point's request, which wires the experiments, shows it whole.
      const long = values.filter((item) => JSON.stringify(item.value).length > longValueChars);
      const shown = values
        .filter((item) => !long.includes(item))
        .map((item) => `${JSON.stringify(item.value)} (${item.ids.join(', ')})`);
      const sizes = [...new Set(long.map((item) => sizeOf(item.value) ?? 'a long value'))];
      const named =
        long.length === 0
          ? []
          : [
              `a value of its own in each of ${long.flatMap((item) => item.ids).join(', ')} (${sizes.join(' or ')}; the experiment list, in the entry point's request, shows each whole)`,
            ];
      return `- ${key}: ${[...shown, ...named].join('; ')}`;
    })
    .join('\n');
}

/**
 * The design as the stages after planning read it: the approach, the files in order with
 * what each imports, the packages, the settings experiments change and the shared
 * knowledge. Each file's own logic, the paper's sections it implements and the experiment
 * list (for the entry point) come in that file's request, not in every one.
 */
export function laterStageDesign(plan: Plan): string {
  const files = plan.logic.order
    .map((path) => {
      const imports = plan.logic.fileLogic.find((file) => file.path === path)?.imports ?? [];
      const python = imports.filter((item) => item.endsWith('.py'));
      return `- ${path}${python.length === 0 ? '' : ` (imports ${python.join(', ')})`}`;
    })
    .join('\n');
  const packages = plan.logic.requiredPackages
    .map((pkg) => `${pkg.name}${pkg.version ? ` ${pkg.version}` : ''} (import ${pkg.importName})`)
    .join(', ');
  return [
    `## Approach\n${plan.architecture.implementationApproach}`,
    `## Files (in dependency order; entry point ${plan.logic.entryPoint})\n${files}`,
    `## Required packages\n${packages || 'standard library only'}`,
    `## Settings the paper's experiments change (each experiment runs \`${plan.logic.entryPoint} --config configs/<id>.yaml\`: config.yaml with these settings changed)\n${overriddenSettings(plan)}`,
    `## Shared knowledge\n${plan.logic.sharedKnowledge}`,
  ].join('\n\n');
}

/**
 * What every call after planning shares, in its system prompt: the design above,
 * config.yaml's keys and values (its quotes of the paper left out) and config_smoke.yaml as
 * the settings it changes. The paper is not in it: each file's request holds the sections
 * the design names for that file.
 */
export function laterStageContext(plan: Plan): SharedContext {
  const config = renderConfigYaml(plan.config, false, { quotes: false });
  return {
    design: laterStageDesign(plan),
    config,
    smokeConfig: variantView(config, renderConfigYaml(plan.config, true, { quotes: false })),
  };
}

/** The experiments whole, for the requests that wire them (the entry point, the README). */
export function experimentsSection(plan: Plan): string {
  return `The paper's experiments, each run by \`python ${plan.logic.entryPoint} --config <file>\`:\n${experimentsDesign(plan)}`;
}
