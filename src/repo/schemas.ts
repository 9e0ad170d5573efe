import { z } from 'zod';

const relativePath = z
  .string()
  .min(1)
  .refine((path) => !path.startsWith('/') && !path.split('/').includes('..'), {
    message: 'must be a relative path inside the repository',
  })
  .refine((path) => !path.split('/').includes('.git'), {
    message: 'must not be inside .git',
  });

export const architectureSchema = z.object({
  implementationApproach: z.string().min(1),
  files: z
    .array(
      z.object({
        // Only Python files are generated; config, requirements, README come later.
        path: relativePath.refine((path) => path.endsWith('.py'), {
          message:
            'list only the Python files (.py); config.yaml, requirements.txt and README.md are written later',
        }),
        purpose: z.string().min(1),
      }),
    )
    .min(1)
    .refine((files) => new Set(files.map((file) => file.path)).size === files.length, {
      message: 'each file may be listed once',
    }),
  classDiagram: z
    .string()
    .refine((text) => /^\s*classDiagram\b/.test(text), 'must be a mermaid classDiagram'),
  sequenceDiagram: z
    .string()
    .refine((text) => /^\s*sequenceDiagram\b/.test(text), 'must be a mermaid sequenceDiagram'),
});
export type Architecture = z.infer<typeof architectureSchema>;

/** A third-party package the code needs, as the logic design and the design name it. */
const requiredPackage = z.object({
  name: z.string().min(1),
  version: z.string().optional(),
  importName: z.string().min(1),
});

/** The logic design must cover exactly the files of the architecture; checked against it. */
export function logicDesignSchema(architecture: Architecture) {
  const planned = new Set(architecture.files.map((file) => file.path));
  return z
    .object({
      requiredPackages: z.array(requiredPackage),
      fileLogic: z.array(
        z.object({
          path: relativePath,
          logic: z.string().min(1),
          /** The files of the architecture it imports from: what its analysis and code are shown. */
          imports: z.array(relativePath).optional(),
          /** The paper's sections it implements, by heading: what its analysis and code are shown of the paper. */
          paperSections: z.array(z.string().min(1)).optional(),
        }),
      ),
      order: z.array(relativePath).min(1),
      sharedKnowledge: z.string(),
      entryPoint: relativePath.refine((path) => path.endsWith('.py'), 'must be a .py file'),
    })
    .superRefine((design, context) => {
      const ordered = new Set(design.order);
      for (const path of planned) {
        if (!ordered.has(path)) {
          context.addIssue({ code: 'custom', path: ['order'], message: `misses ${path}` });
        }
      }
      for (const path of design.order) {
        if (!planned.has(path) && path !== 'config.yaml') {
          context.addIssue({
            code: 'custom',
            path: ['order'],
            message: `${path} is not in the architecture's file list`,
          });
        }
      }
      for (const file of design.fileLogic) {
        for (const imported of file.imports ?? []) {
          // A non-Python name (config.yaml) is not a file it imports code from: ignored.
          if (imported.endsWith('.py') && (!planned.has(imported) || imported === file.path)) {
            context.addIssue({
              code: 'custom',
              path: ['fileLogic'],
              message: `${file.path} imports ${imported}, which is not another file of the architecture`,
            });
          }
        }
      }
      if (ordered.size !== design.order.length) {
        context.addIssue({ code: 'custom', path: ['order'], message: 'lists a file twice' });
      }
      if (!planned.has(design.entryPoint)) {
        context.addIssue({
          code: 'custom',
          path: ['entryPoint'],
          message: `${design.entryPoint} is not in the architecture's file list`,
        });
      }
    });
}
export type LogicDesign = z.infer<ReturnType<typeof logicDesignSchema>>;

/**
 * The design in one answer: the architecture (approach, files, diagrams) and the logic
 * design (each file's logic, imports and paper sections; order, packages, shared
 * knowledge), checked as the two are.
 */
export const designSchema = z
  .object({
    implementationApproach: z.string().min(1),
    files: z
      .array(
        z.object({
          path: relativePath,
          purpose: z.string().min(1),
          logic: z.string().min(1),
          imports: z.array(relativePath).optional(),
          paperSections: z.array(z.string().min(1)).optional(),
        }),
      )
      .min(1),
    requiredPackages: z.array(requiredPackage),
    order: z.array(relativePath).min(1),
    sharedKnowledge: z.string(),
    entryPoint: relativePath,
    classDiagram: z.string(),
    sequenceDiagram: z.string(),
  })
  .transform((design, context) => {
    const architecture = architectureSchema.safeParse({
      implementationApproach: design.implementationApproach,
      files: design.files.map((file) => ({ path: file.path, purpose: file.purpose })),
      classDiagram: design.classDiagram,
      sequenceDiagram: design.sequenceDiagram,
    });
    if (!architecture.success) {
      for (const issue of architecture.error.issues) context.addIssue({ ...issue, code: 'custom' });
      return z.NEVER;
    }
    const logic = logicDesignSchema(architecture.data).safeParse({
      requiredPackages: design.requiredPackages,
      fileLogic: design.files.map(({ path, logic, imports, paperSections }) => ({
        path,
        logic,
        ...(imports === undefined ? {} : { imports }),
        ...(paperSections === undefined ? {} : { paperSections }),
      })),
      order: design.order,
      sharedKnowledge: design.sharedKnowledge,
      entryPoint: design.entryPoint,
    });
    if (!logic.success) {
      for (const issue of logic.error.issues)
        context.addIssue({
          ...issue,
          code: 'custom',
          // The answer holds each file's logic under `files`.
          path: issue.path.map((part) => (part === 'fileLogic' ? 'files' : part)),
        });
      return z.NEVER;
    }
    return { architecture: architecture.data, logic: logic.data };
  });
export type Design = z.output<typeof designSchema>;

/** A config value as YAML holds it: a scalar, a list, or a nested mapping of values. */
export type ConfigValue =
  number | string | boolean | null | ConfigValue[] | { [key: string]: ConfigValue };

// Lists of layer sizes, per-dataset settings and the like are common in papers: accept them.
const configValue: z.ZodType<ConfigValue> = z.lazy(() =>
  z.union([
    z.number(),
    z.string(),
    z.boolean(),
    z.null(),
    z.array(configValue),
    z.record(z.string(), configValue),
  ]),
);

export const configSchema = z.object({
  entries: z
    .array(
      z.object({
        key: z.string().regex(/^[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*$/, 'dotted identifier'),
        value: configValue,
        /** A quote of the paper that states the value. */
        evidence: z.string().min(3).optional(),
        /** For a value the code needs that the paper does not state: why this value. */
        choice: z.string().min(3).optional(),
      }),
    )
    .min(1)
    .superRefine((entries, context) => {
      entries.forEach((entry, index) => {
        if ((entry.evidence === undefined) === (entry.choice === undefined))
          context.addIssue({
            code: 'custom',
            path: [index],
            message: `${entry.key} needs either \`evidence\` (a quote of the paper) or \`choice\` (why, when the paper does not state it), not both`,
          });
      });
    }),
  smokeOverrides: z.array(z.object({ key: z.string().min(1), value: configValue })),
});
export type ConfigAnswer = z.infer<typeof configSchema>;

export const critiqueSchema = z.object({
  problems: z.array(z.object({ where: z.string(), problem: z.string(), fix: z.string() })),
});

const experimentId = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9_-]*$/,
    'lowercase letters, digits, - and _ (it names configs/<id>.yaml)',
  );

/**
 * The paper's experiments, each mapped to a configuration of the repository: the overrides
 * of config.yaml that set it up, or the reason the repository leaves it out.
 */
export const experimentsSchema = z.object({
  experiments: z
    .array(
      z.object({
        id: experimentId,
        /** Where the paper reports it: "Table 2", "Figure 3, left", "Section 5.2 ablation". */
        source: z.string().min(1),
        description: z.string().min(1),
        overrides: z.array(z.object({ key: z.string().min(1), value: configValue })).default([]),
        /** What running it needs beyond the repository: an API key, a GPU, a gated download. */
        needs: z.string().optional(),
        /** Why the repository does not run it (compute, data access); no command then. */
        leftOut: z.string().optional(),
      }),
    )
    .min(1)
    .refine(
      (experiments) => new Set(experiments.map((item) => item.id)).size === experiments.length,
      { message: 'each experiment id may be used once' },
    ),
});
export type Experiments = z.infer<typeof experimentsSchema>;
export type Experiment = Experiments['experiments'][number];

/** A node of a rubric as PaperBench's rubric.json writes it (snake_case keys). */
export interface RubricJsonNode {
  id: string;
  requirements: string;
  weight: number;
  sub_tasks: RubricJsonNode[];
  task_category?: 'Code Development' | 'Code Execution' | 'Result Analysis';
}

const rubricJsonNode: z.ZodType<RubricJsonNode> = z.lazy(() =>
  z
    .object({
      id: z.string().min(1),
      requirements: z.string().min(1),
      weight: z.number().min(0),
      sub_tasks: z.array(rubricJsonNode),
      task_category: z.enum(['Code Development', 'Code Execution', 'Result Analysis']).optional(),
    })
    .superRefine((node, context) => {
      if (node.sub_tasks.length === 0 && node.task_category === undefined)
        context.addIssue({
          code: 'custom',
          path: ['task_category'],
          message: `leaf ${node.id} needs a task_category: Code Development, Code Execution or Result Analysis`,
        });
    }),
);

const rubricLeaves = (node: RubricJsonNode): RubricJsonNode[] =>
  node.sub_tasks.length === 0 ? [node] : node.sub_tasks.flatMap(rubricLeaves);
const rubricIds = (node: RubricJsonNode): string[] => [
  node.id,
  ...node.sub_tasks.flatMap(rubricIds),
];

/** The reproduction checklist: one PaperBench rubric tree, ids unique, some code leaves. */
export const rubricJsonSchema = rubricJsonNode.superRefine((root, context) => {
  const ids = rubricIds(root);
  const repeated = ids.filter((id, index) => ids.indexOf(id) !== index);
  if (repeated.length > 0)
    context.addIssue({ code: 'custom', message: `ids used twice: ${repeated.join(', ')}` });
  const leaves = rubricLeaves(root);
  if (!leaves.some((leaf) => leaf.task_category === 'Code Development'))
    context.addIssue({ code: 'custom', message: 'no leaf is marked Code Development' });
  if (leaves.length > 40)
    context.addIssue({
      code: 'custom',
      message: `${leaves.length} leaves; keep the checklist to at most 40 (merge the finest ones)`,
    });
});

/** The configuration and the experiments map, asked in one answer. */
export const settingsSchema = configSchema.extend({
  experiments: experimentsSchema.shape.experiments,
});
