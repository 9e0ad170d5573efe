import { z } from 'zod';

const text = z.string().trim().min(1);

export const citationSchema = z.object({
  paper: z
    .string()
    .trim()
    .regex(/^P\d+$/, 'a paper id as given in brackets, e.g. P1'),
  section: text,
  quote: z.string().trim().min(8, 'quote a passage of a few words at least'),
});
export type Citation = z.infer<typeof citationSchema>;

const statementSchema = z.object({
  statement: text,
  citations: z.array(citationSchema).min(1, 'cite at least one passage'),
});
export type CitedStatement = z.infer<typeof statementSchema>;

export const analysisSchema = z.object({
  tasks: z.array(statementSchema).min(1),
  gaps: z.array(statementSchema).min(1),
  keywords: z.array(text).min(1).max(20),
});
export type ProblemAnalysis = z.infer<typeof analysisSchema>;

export const metricDirections = ['max', 'min'] as const;

// Grounding (issue 17, part "grounding"): with `--code` each step of a plan says whether the
// prototype can run it, and why. A plain step (no `--code`, or a model that did not classify
// it) is taken as runnable.
export const groundedStepSchema = z.object({
  step: text,
  runsOnPrototype: z.boolean(),
  reason: text,
});
export type GroundedStep = z.infer<typeof groundedStepSchema>;
export const planStepSchema = z.union([text, groundedStepSchema]);
export type PlanStep = z.infer<typeof planStepSchema>;

export const ideaCardSchema = z.object({
  title: text,
  problem: text,
  hypothesis: z.object({ statement: text, expectedEffect: text }),
  rationale: text,
  method: text,
  experimentPlan: z.object({
    dataPreparation: text,
    baselines: z.array(text).min(1, 'name at least one baseline'),
    metrics: z
      .array(z.object({ name: text, direction: z.enum(metricDirections) }))
      .min(1, 'name at least one metric with its direction'),
    procedure: z.array(planStepSchema).min(1),
    seeds: z.array(z.number().int()).min(1, 'give at least one seed'),
    ablations: z.array(text),
    expectedOutcome: text,
    stopCriteria: text,
  }),
  risks: z.array(text).min(1),
  relatedWork: z.array(z.object({ item: text, adds: text })),
});
export type IdeaCard = z.infer<typeof ideaCardSchema>;

// Grounding (issue 17, part "grounding"): with `--code` every step must be classified, so an
// answer with a plain step is asked again with the problem.
export const groundedIdeaCardSchema = ideaCardSchema.superRefine((card, context) => {
  card.experimentPlan.procedure.forEach((step, index) => {
    if (typeof step === 'string') {
      context.addIssue({
        code: 'custom',
        path: ['experimentPlan', 'procedure', index],
        message: 'give the step as { "step", "runsOnPrototype", "reason" }',
      });
    }
  });
});

/** The card schema of an exploration: with a prototype (`--code`), steps are classified. */
export const cardSchemaFor = (grounded: boolean) =>
  grounded ? groundedIdeaCardSchema : ideaCardSchema;

/** Exactly `count` cards, so a short or padded answer is re-asked rather than accepted. */
export function ideaListSchema(count: number, grounded = false) {
  return z.object({
    ideas: z.array(cardSchemaFor(grounded)).length(count, `give exactly ${count} ideas`),
  });
}

/** The ResearchAgent criteria MLR-Copilot adopted, in its order. */
export const reviewCriteria = {
  problem: ['clarity', 'relevance', 'originality', 'feasibility', 'significance'],
  method: ['clarity', 'validity', 'rigour', 'innovativeness', 'generalizability'],
  experimentPlan: ['clarity', 'validity', 'robustness', 'feasibility', 'reproducibility'],
} as const;
export type ReviewAspect = keyof typeof reviewCriteria;

const scoreSchema = z.object({
  score: z
    .number()
    .int('a whole number from 1 to 5')
    .min(1, 'scores run from 1 to 5')
    .max(5, 'scores run from 1 to 5'),
  reason: text,
});
export type CriterionScore = z.infer<typeof scoreSchema>;

function aspectSchema<const Names extends readonly string[]>(names: Names) {
  return z.object(
    Object.fromEntries(names.map((name) => [name, scoreSchema])) as Record<
      Names[number],
      typeof scoreSchema
    >,
  );
}

export const reviewSchema = z.object({
  problem: aspectSchema(reviewCriteria.problem),
  method: aspectSchema(reviewCriteria.method),
  experimentPlan: aspectSchema(reviewCriteria.experimentPlan),
});
export type Review = z.infer<typeof reviewSchema>;

// --- Reviews part (issue 17): the meta-review that reconciles the independent reviews. ---

/** The meta-reviewer's reconciled scores, every criterion, and its summary of the reviews. */
export const metaReviewSchema = reviewSchema.extend({ summary: text });
export type MetaReview = z.infer<typeof metaReviewSchema>;
