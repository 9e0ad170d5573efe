import type { ChatMessage, ModelCaller } from '../llm/types.js';
import { loadPrompt } from '../prompts/load-prompt.js';
import {
  architectureSchema,
  configSchema,
  critiqueSchema,
  experimentsSchema,
  logicDesignSchema,
  rubricJsonSchema,
  type Architecture,
  type ConfigAnswer,
  type Experiment,
  type LogicDesign,
  type RubricJsonNode,
} from './schemas.js';
import { askStructured, askValidated } from './structured-answer.js';
import { quotedEntries, untracedEntries } from './config-yaml.js';
import { stableSystem } from './stable-context.js';
import { experimentsDesign } from './experiments.js';

export interface Plan {
  overall: string;
  architecture: Architecture;
  logic: LogicDesign;
  config: ConfigAnswer;
  /** Every experiment of the paper, mapped to a configuration or left out with the reason. */
  experiments: Experiment[];
  /** The reproduction checklist in PaperBench's rubric.json form, from the paper alone. */
  rubric: RubricJsonNode;
  /** Config keys the model could not trace to a quote of the paper; dropped from config.yaml. */
  dropped: string[];
}

const planSections = [
  'Method',
  'Data',
  'Settings',
  'Experiments',
  'Hyperparameters',
  'Metrics',
  'Unclear',
];

/** The overall plan must hold the seven sections, in Markdown headings. */
export function parseOverallPlan(text: string): { value: string } | string {
  const missing = planSections.filter(
    (section) => !new RegExp(`^#{1,3}\\s*${section}\\b`, 'im').test(text),
  );
  if (missing.length > 0) return `the plan lacks the section(s) ${missing.join(', ')}`;
  return { value: text.trim() };
}

/**
 * The conversation to continue after an accepted answer: what was asked and the answer
 * that was accepted. An answer asked again (invalid JSON, a missing section) and the
 * problem named to the model are left out: later calls need the result, not the retry.
 */
function accepted(asked: ChatMessage[], result: { answer: { text: string } }): ChatMessage[] {
  return [...asked, { role: 'assistant', content: result.answer.text }];
}

/** One conversation: overall plan → architecture → logic design → config, each checked. */
export async function planRepository(
  models: ModelCaller,
  paperText: string,
  options: { selfRefine: boolean; maxAttempts?: number; quoteSource?: string },
): Promise<Plan> {
  const quoteSource = options.quoteSource ?? paperText;
  // The paper sits in the system prompt: the one prefix every planning call shares.
  const system = stableSystem({ paper: paperText });
  const ask = { role: 'planner' as const, system };
  let messages: ChatMessage[] = [{ role: 'user', content: loadPrompt('repo-plan-overall') }];
  const overall = await askValidated(
    models,
    {
      ...ask,
      messages,
      label: 'plan-overall',
      expect: 'A Markdown plan with the seven sections asked for.',
    },
    parseOverallPlan,
    {
      maxAttempts: options.maxAttempts,
      retryHint: 'Give the whole plan again with every section.',
    },
  );
  messages = [
    ...accepted(messages, overall),
    { role: 'user', content: loadPrompt('repo-plan-architecture') },
  ];
  const architecture = await askStructured(
    models,
    {
      ...ask,
      messages,
      label: 'plan-architecture',
      expect: 'One ```json block: the architecture.',
    },
    architectureSchema,
    { maxAttempts: options.maxAttempts },
  );
  messages = [
    ...accepted(messages, architecture),
    { role: 'user', content: loadPrompt('repo-plan-logic') },
  ];
  const logic = await askStructured(
    models,
    { ...ask, messages, label: 'plan-logic', expect: 'One ```json block: the logic design.' },
    logicDesignSchema(architecture.value),
    { maxAttempts: options.maxAttempts },
  );
  messages = [
    ...accepted(messages, logic),
    { role: 'user', content: loadPrompt('repo-plan-config') },
  ];
  const config = await askStructured(
    models,
    { ...ask, messages, label: 'plan-config', expect: 'One ```json block: config entries.' },
    configSchema,
    {
      maxAttempts: options.maxAttempts,
      check: (value) => {
        if (value.smokeOverrides.length === 0) {
          return 'smokeOverrides is empty, so config_smoke.yaml would be the full reproduction; give the overrides that make it run offline on a CPU in under a minute';
        }
        const untraced = untracedEntries(value, quoteSource);
        if (untraced.length * 2 > quotedEntries(value).length) {
          return `most evidence quotes are not in the paper word for word (${untraced.join(', ')}); copy each quote exactly from the paper, or give the entry as an implementation choice (choice, not evidence)`;
        }
        return undefined;
      },
    },
  );
  const configConversation = accepted(messages, config);
  messages = [
    ...configConversation,
    { role: 'user', content: loadPrompt('repo-plan-experiments') },
  ];
  const experiments = await askStructured(
    models,
    {
      ...ask,
      messages,
      label: 'plan-experiments',
      expect: "One ```json block: the paper's experiments.",
    },
    experimentsSchema,
    { maxAttempts: options.maxAttempts },
  );
  const rubric = await planRubric(models, system, options);
  let plan: Plan = {
    overall: overall.value,
    architecture: architecture.value,
    logic: logic.value,
    config: config.value,
    experiments: experiments.value.experiments,
    rubric,
    dropped: [],
  };
  if (options.selfRefine)
    plan = await refinePlan(models, system, configConversation, plan, options);
  return withTracedConfig(plan, quoteSource);
}

/**
 * The reproduction checklist, asked in a conversation of its own that holds only the paper
 * (the same system prompt, so it is cached): it is built from the paper alone, not from the
 * plan the repository will follow, so the self-check measures the code against the paper.
 */
async function planRubric(
  models: ModelCaller,
  system: string,
  options: { maxAttempts?: number },
): Promise<RubricJsonNode> {
  const rubric = await askStructured(
    models,
    {
      role: 'planner',
      system,
      messages: [{ role: 'user', content: loadPrompt('repo-plan-rubric') }],
      label: 'plan-rubric',
      expect: 'One ```json block: the rubric tree.',
    },
    rubricJsonSchema,
    { maxAttempts: options.maxAttempts },
  );
  return rubric.value;
}

/** config.yaml holds only values the paper states: entries whose quote is not found are dropped. */
function withTracedConfig(plan: Plan, paperText: string): Plan {
  const dropped = untracedEntries(plan.config, paperText);
  const entries = plan.config.entries.filter((entry) => !dropped.includes(entry.key));
  return { ...plan, config: { ...plan.config, entries }, dropped };
}

/** --self-refine: a critique of the whole plan, then each artifact revised with the fixes. */
async function refinePlan(
  models: ModelCaller,
  system: string,
  conversation: ChatMessage[],
  plan: Plan,
  options: { maxAttempts?: number },
): Promise<Plan> {
  const critique = await askStructured(
    models,
    {
      role: 'planner',
      system,
      messages: [...conversation, { role: 'user', content: loadPrompt('repo-critique') }],
      label: 'self-refine-critique',
      expect: 'One ```json block: the problems found.',
    },
    critiqueSchema,
    { maxAttempts: options.maxAttempts },
  );
  if (critique.value.problems.length === 0) return plan;
  const problems = critique.value.problems
    .map((item) => `- ${item.where}: ${item.problem} → ${item.fix}`)
    .join('\n');
  const revise = (artifact: string): ChatMessage[] => [
    ...critique.messages,
    { role: 'user', content: loadPrompt('repo-revise', { artifact, problems }) },
  ];
  const architecture = await askStructured(
    models,
    {
      role: 'planner',
      system,
      messages: revise('architecture design (JSON)'),
      label: 'revise-architecture',
    },
    architectureSchema,
    { maxAttempts: options.maxAttempts },
  );
  const logic = await askStructured(
    models,
    {
      role: 'planner',
      system,
      messages: [
        ...architecture.messages,
        {
          role: 'user',
          content: loadPrompt('repo-revise', { artifact: 'logic design (JSON)', problems }),
        },
      ],
      label: 'revise-logic',
    },
    logicDesignSchema(architecture.value),
    { maxAttempts: options.maxAttempts },
  );
  const config = await askStructured(
    models,
    {
      role: 'planner',
      system,
      messages: [
        ...logic.messages,
        {
          role: 'user',
          content: loadPrompt('repo-revise', { artifact: 'configuration (JSON)', problems }),
        },
      ],
      label: 'revise-config',
    },
    configSchema,
    { maxAttempts: options.maxAttempts },
  );
  return { ...plan, architecture: architecture.value, logic: logic.value, config: config.value };
}

/**
 * The design as one text: approach, files, packages, experiments, logic per file, shared
 * knowledge. The logic design is the one source of the interfaces, so the later stages see
 * no diagrams (the architecture's sketch, which it may correct); `docs/design.md` keeps
 * them, after the rest, for a reader.
 */
export function renderDesign(plan: Plan, options: { diagrams?: boolean } = {}): string {
  const files = plan.architecture.files.map((file) => `- ${file.path}: ${file.purpose}`).join('\n');
  const logic = plan.logic.fileLogic.map((file) => `### ${file.path}\n${file.logic}`).join('\n\n');
  const packages = plan.logic.requiredPackages
    .map((pkg) => `${pkg.name}${pkg.version ? ` ${pkg.version}` : ''} (import ${pkg.importName})`)
    .join(', ');
  const diagrams = options.diagrams
    ? [
        `## Architecture sketch: class diagram (the logic per file above holds where they differ)\n\`\`\`mermaid\n${plan.architecture.classDiagram}\n\`\`\``,
        `## Architecture sketch: sequence diagram\n\`\`\`mermaid\n${plan.architecture.sequenceDiagram}\n\`\`\``,
      ]
    : [];
  return [
    `## Approach\n${plan.architecture.implementationApproach}`,
    `## Files (in dependency order: ${plan.logic.order.join(', ')}; entry point ${plan.logic.entryPoint})\n${files}`,
    `## Required packages\n${packages || 'standard library only'}`,
    `## The paper's experiments (each run by \`${plan.logic.entryPoint} --config <file>\`)\n${experimentsDesign(plan)}`,
    `## Logic per file (where the approach or the file list above say otherwise, this holds)\n${logic}`,
    `## Shared knowledge\n${plan.logic.sharedKnowledge}`,
    ...diagrams,
  ].join('\n\n');
}
