import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { NonNormalizedSpec } from 'vega-lite/types_unstable/spec/index.js';
import type { LayerSpec } from 'vega-lite/types_unstable/spec/layer.js';
import type { UnitSpec } from 'vega-lite/types_unstable/spec/unit.js';
import type { Field } from 'vega-lite/types_unstable/channeldef.js';
import type { EvalSummary } from '../collection/collect-evaluation.js';
import type { Block } from './report-blocks.js';
import { runLink } from './report-format.js';

/** Renders a Vega-Lite spec to an SVG string in Node, no browser or canvas needed. */
export async function renderChart(spec: TopLevelSpec): Promise<string> {
  const view = new View(parse(compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

const categoryColors = {
  domain: ['A', 'B', 'C', 'D'],
  range: ['#2e7d32', '#1565c0', '#ef6c00', '#9e9e9e'],
};

/**
 * The report's charts, made with Vega-Lite: one mark per run, so every bar segment and
 * point links to the run folder it came from and the spread across trials shows.
 */
export async function reportCharts(summary: EvalSummary): Promise<Block[]> {
  return [
    ...(await implementCharts(summary)),
    ...(await paperCharts(summary)),
    ...(await exploreCharts(summary)),
  ];
}

/** The categories of the implement runs, and their final metrics. */
async function implementCharts(summary: EvalSummary): Promise<Block[]> {
  const charts: Block[] = [];
  const tasks = summary.runs.filter((run) => run.implement !== undefined && run.runDir !== null);
  if (tasks.length === 0) return charts;
  const values = tasks.map((run) => ({
    row: `${run.item} · ${run.strategy} · ${run.model}`,
    category: run.implement?.category ?? 'D',
    metric: run.implement?.metric ?? null,
    trial: run.trial,
    run: run.key,
    href: runLink(summary.evalDir, run.runDir ?? ''),
  }));
  charts.push({
    kind: 'chart',
    caption:
      'Outcome categories per task, strategy and model: one segment per run (click it for its folder).',
    svg: await renderChart({
      data: { values },
      mark: { type: 'bar', stroke: 'white' },
      width: 480,
      encoding: {
        y: { field: 'row', type: 'nominal', title: null, sort: null, axis: { labelLimit: 360 } },
        x: { aggregate: 'count', type: 'quantitative', title: 'runs', axis: { tickMinStep: 1 } },
        color: { field: 'category', type: 'nominal', scale: categoryColors, title: 'category' },
        order: { field: 'category' },
        href: { field: 'href' },
        tooltip: [{ field: 'run' }, { field: 'category' }],
      },
    }),
  });
  const panels = metricPanels(summary);
  if (panels.length > 0) {
    charts.push({
      kind: 'chart',
      caption:
        "The final metric of every run, one panel per task on the task's own scale: the line is the starter's figure, the shaded band beyond it the largest margin its runs had to clear (each run's margin and its source are in the verdicts table); with seeds, each run's point is its mean over the seeds (click a point for its run).",
      svg: await renderChart({ vconcat: panels, resolve: { scale: { x: 'independent' } } }),
    });
  }
  return charts;
}

/**
 * One panel per task: its runs' final metrics, the starter's figure as a rule and the
 * margin as a band beyond it in the goal's direction, so metrics of different tasks (an
 * accuracy, a recall) never share an axis.
 */
function metricPanels(summary: EvalSummary): NonNormalizedSpec[] {
  const tasks = summary.runs.filter((run) => run.implement !== undefined && run.runDir !== null);
  const items = [...new Set(tasks.map((run) => run.item))];
  return items.flatMap((item): NonNormalizedSpec[] => {
    const runs = tasks.filter((run) => run.item === item);
    const points = runs.flatMap((run) => {
      const figures = run.implement;
      const finals = figures?.seeds?.values.flatMap((entry) =>
        entry.final === null ? [] : [entry.final],
      );
      const metric =
        finals !== undefined && finals.length > 0
          ? finals.reduce((sum, value) => sum + value, 0) / finals.length
          : (figures?.metric ?? null);
      if (figures === undefined || metric === null) return [];
      return [
        {
          row: `${run.strategy} · ${run.model}`,
          category: figures.category,
          metric,
          run: run.key,
          href: runLink(summary.evalDir, run.runDir ?? ''),
        },
      ];
    });
    if (points.length === 0) return [];
    const first = runs[0]?.implement;
    const seeded = summary.starterSeeds[item];
    const starter = seeded?.mean ?? summary.noise[item]?.mean ?? first?.starter ?? null;
    const margin = Math.max(0, ...runs.map((run) => run.implement?.verdict.margin ?? 0));
    const direction = first?.goal === 'min' ? -1 : 1;
    const layers: (LayerSpec<Field> | UnitSpec<Field>)[] = [];
    if (starter !== null) {
      const band = [starter, starter + direction * margin].sort((a, b) => a - b);
      layers.push(
        {
          data: { values: [{ from: band[0], to: band[1] }] },
          mark: { type: 'rect', color: '#90a4ae', opacity: 0.3 },
          encoding: { x: { field: 'from', type: 'quantitative' }, x2: { field: 'to' } },
        },
        {
          data: { values: [{ starter }] },
          mark: { type: 'rule', color: '#455a64', strokeDash: [4, 3] },
          encoding: { x: { field: 'starter', type: 'quantitative' } },
        },
      );
    }
    layers.push({
      data: { values: points },
      mark: { type: 'point', filled: true, size: 70 },
      encoding: {
        y: { field: 'row', type: 'nominal', title: null, sort: null, axis: { labelLimit: 300 } },
        x: {
          field: 'metric',
          type: 'quantitative',
          scale: { zero: false },
          title: `${item}: ${first?.metricName ?? 'metric'}${first?.goal === 'min' ? ' (lower is better)' : ''}`,
        },
        color: { field: 'category', type: 'nominal', scale: categoryColors, title: 'category' },
        href: { field: 'href' },
        tooltip: [{ field: 'run' }, { field: 'metric' }],
      },
    });
    return [{ layer: layers, width: 480 }];
  });
}

/** The judge's and the rubric's scores of the paper runs. */
async function paperCharts(summary: EvalSummary): Promise<Block[]> {
  const charts: Block[] = [];
  const papers = summary.runs.filter(
    (run) => run.runDir !== null && (run.judge !== undefined || run.rubric !== undefined),
  );
  if (papers.length === 0) return charts;
  const row = (run: (typeof papers)[number]) => ({
    row: `${run.item} · ${run.model}`,
    run: run.key,
    href: runLink(summary.evalDir, run.runDir ?? ''),
  });
  const judged = papers.flatMap((run) =>
    run.judge === undefined ? [] : [{ ...row(run), value: run.judge.score }],
  );
  const graded = papers.flatMap((run) =>
    run.rubric === undefined ? [] : [{ ...row(run), value: run.rubric.score }],
  );
  // Each score on its own axis: the judge's 1–5 as given, the rubric's 0–1 share.
  const panels: NonNormalizedSpec[] = [
    ...(judged.length === 0 ? [] : [pointPanel(judged, [1, 5], 'judge score (1–5)')]),
    ...(graded.length === 0 ? [] : [pointPanel(graded, [0, 1], 'rubric score (0–1)')]),
  ];
  charts.push({
    kind: 'chart',
    caption:
      'Judge scores (1–5) and rubric scores (0–1) of every paper run, each on its own axis (click a point for its run).',
    svg: await renderChart({ hconcat: panels }),
  });
  return charts;
}

/** A point of a per-run chart: the row it stands in, its run and the run's page. */
interface ChartPoint {
  row: string;
  run: string;
  href: string;
  value: number;
  measure?: string;
}

/**
 * One panel of points, a row per run, on an axis of its own; with `byMeasure`, the points'
 * measures are told apart by colour and shape.
 */
function pointPanel(
  values: ChartPoint[],
  domain: [number, number],
  title: string,
  byMeasure = false,
): NonNormalizedSpec {
  const measure = { field: 'measure', type: 'nominal', title: null } as const;
  return {
    data: { values },
    mark: { type: 'point', filled: true, size: 70 },
    width: 300,
    encoding: {
      y: { field: 'row', type: 'nominal', title: null, sort: null, axis: { labelLimit: 300 } },
      x: { field: 'value', type: 'quantitative', scale: { domain }, title },
      ...(byMeasure ? { color: measure, shape: measure } : {}),
      href: { field: 'href' },
      tooltip: byMeasure
        ? [{ field: 'run' }, { field: 'measure' }, { field: 'value' }]
        : [{ field: 'run' }, { field: 'value' }],
    },
  };
}

/** Each exploration's mean review score and the shares of its ideas that ran and improved. */
async function exploreCharts(summary: EvalSummary): Promise<Block[]> {
  const charts: Block[] = [];
  const explorations = summary.runs.filter(
    (run) => run.runDir !== null && run.explore?.ideasWritten === true,
  );
  if (explorations.length === 0) return charts;
  const base = (run: (typeof explorations)[number]) => ({
    row: `${run.item} · ${run.model}`,
    run: run.key,
    href: runLink(summary.evalDir, run.runDir ?? ''),
  });
  // The judge's 1–5 review on its own axis; the shares (0–1) on theirs.
  const reviews = explorations.flatMap((run) =>
    run.explore?.review.overall === null || run.explore === undefined
      ? []
      : [{ ...base(run), measure: 'mean review (1–5)', value: run.explore.review.overall }],
  );
  const shares = explorations.flatMap((run) => {
    const figures = run.explore;
    if (figures === undefined) return [];
    return [
      ...(figures.ranShare === null
        ? []
        : [{ ...base(run), measure: 'ideas whose experiment ran', value: figures.ranShare }]),
      ...(figures.improvedShare === null
        ? []
        : [
            { ...base(run), measure: 'ideas that beat the baseline', value: figures.improvedShare },
          ]),
    ];
  });
  const panel = (values: ChartPoint[], domain: [number, number], title: string) =>
    pointPanel(values, domain, title, true);
  const panels: NonNormalizedSpec[] = [
    ...(reviews.length === 0 ? [] : [panel(reviews, [1, 5], 'mean review score (1–5)')]),
    ...(shares.length === 0 ? [] : [panel(shares, [0, 1], 'share of ideas')]),
  ];
  if (panels.length === 0) return charts;
  charts.push({
    kind: 'chart',
    caption:
      "Explorations: each run's mean review score (1–5) and the shares of its ideas whose experiment ran and beat the baseline (0–1), each on its own axis (click a point for its run).",
    svg: await renderChart({
      hconcat: panels,
      resolve: { scale: { color: 'independent', shape: 'independent' } },
    }),
  });
  return charts;
}
