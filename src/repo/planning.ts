import type { z } from 'zod';
import type { ChatMessage, ModelCaller } from '../llm/types.js';
import { loadPrompt } from '../prompts/load-prompt.js';
import {
  critiqueSchema,
  designSchema,
  rubricJsonSchema,
  settingsSchema,
  type Architecture,
  type ConfigAnswer,
  type Experiment,
  type LogicDesign,
  type RubricJsonNode,
} from './schemas.js';
import {
  askStructured,
  askValidated,
  describeProblem,
  type AnswerParser,
} from './structured-answer.js';
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
] as const;

/** The overall plan must hold the seven sections, in Markdown headings. */
export function parseOverallPlan(text: string): { value: string } | string {
  const missing = planSections.filter(
    (section) => !new RegExp(`^#{1,3}\\s*${section}\\b`, 'im').test(text),
  );
  if (missing.length > 0) return `the plan lacks the section(s) ${missing.join(', ')}`;
  return { value: text.trim() };
}

/**
 * One section of the overall plan, its heading left out: the text up to the next heading of
 * the same or a higher level; '' when the plan has no such section.
 */
export function overallPlanSection(
  overall: string,
  section: (typeof planSections)[number],
): string {
  // The section's own heading: of those that name it, the one at the highest level (a
  // sub-heading such as "### Unclear labels" under Data does not count before it).
  const headings = [...overall.matchAll(new RegExp(`^(#{1,3})[ \\t]*${section}\\b.*$`, 'gim'))];
  const heading = headings.reduce<RegExpExecArray | undefined>(
    (best, found) =>
      best === undefined || (found[1]?.length ?? 3) < (best[1]?.length ?? 3) ? found : best,
    undefined,
  );
  if (heading === undefined) return '';
  const level = heading[1]?.length ?? 1;
  const rest = overall.slice(heading.index + heading[0].length);
  const next = new RegExp(`^#{1,${level}}[ \\t]`, 'm').exec(rest);
  return (next === null ? rest : rest.slice(0, next.index)).trim();
}

/** The first answer: the reproduction checklist (from the paper alone), then the overall plan. */
export interface ChecklistAndPlan {
  rubric: RubricJsonNode;
  overall: string;
}

/**
 * The checklist is the answer's first ```json block and must fit rubric.json's form; the
 * plan is the rest, with its seven sections.
 */
export function parseChecklistAndPlan(text: string): { value: ChecklistAndPlan } | string {
  const fence = /```json[^\n]*\n[\s\S]*?\n\s*```/i.exec(text);
  if (fence === null)
    return 'the answer holds no ```json block: give the checklist first, in one ```json block';
  const rubric = describeProblem(fence[0], rubricJsonSchema);
  if (typeof rubric === 'string') return `the checklist does not fit: ${rubric}`;
  const plan = parseOverallPlan(text.slice(fence.index + fence[0].length));
  if (typeof plan === 'string') return plan;
  return { value: { rubric: rubric.value as RubricJsonNode, overall: plan.value } };
}

/**
 * What the conversation keeps of the first answer: the plan. The checklist is for grading
 * the finished repository, not for designing it, so later questions do not resend it.
 */
const planOnly = (value: ChecklistAndPlan) =>
  `(The reproduction checklist is kept apart.)\n\n${value.overall}`;

/**
 * The conversation to continue after an accepted answer: what was asked and the answer
 * that was accepted (or what `kept` keeps of it). An answer asked again (invalid JSON, a
 * missing section) and the problem named to the model are left out: later calls need the
 * result, not the retry.
 */
function accepted(asked: ChatMessage[], kept: string): ChatMessage[] {
  const unmarked = asked.map(({ cacheMark: _mark, ...message }) => message);
  return [...unmarked, { role: 'assistant', content: kept }];
}

/**
 * A question of the conversation, marked as the end of the prefix the next question
 * continues (a provider that caches where told reads it from its cache then).
 */
const question = (content: string): ChatMessage => ({ role: 'user', content, cacheMark: true });

/**
 * The planning conversation: the paper in its system prompt, each question added in turn and
 * each accepted answer kept for the next.
 */
class PlanningConversation {
  messages: ChatMessage[] = [];
  private readonly ask: { role: 'planner'; system: string };

  constructor(
    private readonly models: ModelCaller,
    system: string,
    private readonly maxAttempts: number | undefined,
  ) {
    this.ask = { role: 'planner', system };
  }

  /** Asks the prompt's question until `parse` accepts the answer, which joins the conversation. */
  async validated<T>(
    prompt: string,
    label: string,
    expect: string,
    parse: AnswerParser<T>,
    retryHint: string,
    kept: (value: T, text: string) => string = (_value, text) => text,
  ): Promise<T> {
    const messages: ChatMessage[] = [...this.messages, question(loadPrompt(prompt))];
    const result = await askValidated(
      this.models,
      { ...this.ask, messages, label, expect },
      parse,
      { maxAttempts: this.maxAttempts, retryHint },
    );
    this.messages = accepted(messages, kept(result.value, result.answer.text));
    return result.value;
  }

  /** Asks for one ```json block that fits the schema (and `check`), kept as above. */
  async structured<T>(
    prompt: string,
    label: string,
    expect: string,
    schema: z.ZodType<T>,
    check?: (value: T) => string | undefined,
  ): Promise<T> {
    const messages: ChatMessage[] = [...this.messages, question(loadPrompt(prompt))];
    const result = await askStructured(
      this.models,
      { ...this.ask, messages, label, expect },
      schema,
      { maxAttempts: this.maxAttempts, ...(check === undefined ? {} : { check }) },
    );
    this.messages = accepted(messages, result.answer.text);
    return result.value;
  }
}

/** Why a config answer cannot be used: no smoke overrides, or quotes not in the paper. */
function configProblem(value: ConfigAnswer, quoteSource: string): string | undefined {
  if (value.smokeOverrides.length === 0) {
    return 'smokeOverrides is empty, so config_smoke.yaml would be the full reproduction; give the overrides that make it run offline on a CPU in under a minute';
  }
  const untraced = untracedEntries(value, quoteSource);
  if (untraced.length * 2 > quotedEntries(value).length) {
    return `most evidence quotes are not in the paper word for word (${untraced.join(', ')}); copy each quote exactly from the paper, or give the entry as an implementation choice (choice, not evidence)`;
  }
  return undefined;
}

/** One conversation: overall plan → design (architecture and logic) → config and experiments, each checked. */
export async function planRepository(
  models: ModelCaller,
  paperText: string,
  options: {
    selfRefine: boolean;
    maxAttempts?: number;
    quoteSource?: string;
    /** The interpreter and package versions the code will run on, as planning states them. */
    environment?: string;
  },
): Promise<Plan> {
  const quoteSource = options.quoteSource ?? paperText;
  // The paper (and the environment) sit in the system prompt: the one prefix every
  // planning call shares.
  const system = stableSystem({
    paper: paperText,
    ...(options.environment === undefined ? {} : { environment: options.environment }),
  });
  const conversation = new PlanningConversation(models, system, options.maxAttempts);
  // The checklist comes first, from the paper alone, so the self-check measures the code
  // against the paper and not against the plan the repository follows.
  const { rubric, overall } = await conversation.validated(
    'repo-plan-overall',
    'plan-overall',
    'One ```json block (the checklist), then a Markdown plan with the seven sections asked for.',
    parseChecklistAndPlan,
    'Give both parts again: the checklist in one ```json block, then the whole plan with every section.',
    planOnly,
  );
  const { architecture, logic } = await conversation.structured(
    'repo-plan-design',
    'plan-design',
    'One ```json block: the design.',
    designSchema,
  );
  const settings = await conversation.structured(
    'repo-plan-config',
    'plan-config',
    'One ```json block: config entries, smoke overrides and experiments.',
    settingsSchema,
    (value) => configProblem(value, quoteSource),
  );
  const { experiments, ...config } = settings;
  let plan: Plan = {
    overall,
    architecture,
    logic,
    config,
    experiments,
    rubric,
    dropped: [],
  };
  if (options.selfRefine)
    plan = await refinePlan(models, system, conversation.messages, plan, options);
  return withTracedConfig(plan, quoteSource);
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
      messages: [...conversation, question(loadPrompt('repo-critique'))],
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
    question(loadPrompt('repo-revise', { artifact, problems })),
  ];
  const design = await askStructured(
    models,
    { role: 'planner', system, messages: revise('design (JSON)'), label: 'revise-design' },
    designSchema,
    { maxAttempts: options.maxAttempts },
  );
  const settings = await askStructured(
    models,
    {
      role: 'planner',
      system,
      messages: [
        ...design.messages,
        question(
          loadPrompt('repo-revise', {
            artifact: 'configuration and experiments (JSON)',
            problems,
          }),
        ),
      ],
      label: 'revise-config',
    },
    settingsSchema,
    { maxAttempts: options.maxAttempts },
  );
  const { experiments, ...config } = settings.value;
  return { ...plan, ...design.value, config, experiments };
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
