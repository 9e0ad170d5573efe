import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
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
  const measured = values.filter((value) => value.metric !== null);
  if (measured.length > 0) {
    charts.push({
      kind: 'chart',
      caption:
        "The final metric of every run, by task, strategy and model: the spread across trials (the task's metric; click a point for its run).",
      svg: await renderChart({
        data: { values: measured },
        mark: { type: 'point', filled: true, size: 70 },
        width: 480,
        encoding: {
          y: {
            field: 'row',
            type: 'nominal',
            title: null,
            sort: null,
            axis: { labelLimit: 360 },
          },
          x: { field: 'metric', type: 'quantitative', scale: { zero: false }, title: 'metric' },
          color: { field: 'category', type: 'nominal', scale: categoryColors, title: 'category' },
          href: { field: 'href' },
          tooltip: [{ field: 'run' }, { field: 'metric' }],
        },
      }),
    });
  }
  return charts;
}

/** The judge's and the rubric's scores of the paper runs. */
async function paperCharts(summary: EvalSummary): Promise<Block[]> {
  const charts: Block[] = [];
  const papers = summary.runs.filter(
    (run) => run.runDir !== null && (run.judge !== undefined || run.rubric !== undefined),
  );
  if (papers.length === 0) return charts;
  const values = papers.flatMap((run) => {
    const base = {
      row: `${run.item} · ${run.model}`,
      run: run.key,
      href: runLink(summary.evalDir, run.runDir ?? ''),
    };
    return [
      ...(run.judge === undefined
        ? []
        : [{ ...base, measure: 'judge score (1–5) ÷ 5', value: run.judge.score / 5 }]),
      ...(run.rubric === undefined
        ? []
        : [{ ...base, measure: 'rubric score (0–1)', value: run.rubric.score }]),
    ];
  });
  charts.push({
    kind: 'chart',
    caption: 'Judge and rubric scores of every paper run (click a point for its run).',
    svg: await renderChart({
      data: { values },
      mark: { type: 'point', filled: true, size: 70 },
      width: 480,
      encoding: {
        y: { field: 'row', type: 'nominal', title: null, sort: null, axis: { labelLimit: 360 } },
        x: { field: 'value', type: 'quantitative', scale: { domain: [0, 1] }, title: 'score' },
        color: { field: 'measure', type: 'nominal', title: null },
        href: { field: 'href' },
        tooltip: [{ field: 'run' }, { field: 'measure' }, { field: 'value' }],
      },
    }),
  });
  return charts;
}

/** Each exploration's mean review score and the shares of its ideas that ran and improved. */
async function exploreCharts(summary: EvalSummary): Promise<Block[]> {
  const charts: Block[] = [];
  const explorations = summary.runs.filter(
    (run) => run.runDir !== null && run.explore?.ideasWritten === true,
  );
  if (explorations.length === 0) return charts;
  const values = explorations.flatMap((run) => {
    const figures = run.explore;
    if (figures === undefined) return [];
    const base = {
      row: `${run.item} · ${run.model}`,
      run: run.key,
      href: runLink(summary.evalDir, run.runDir ?? ''),
    };
    return [
      ...(figures.review.overall === null
        ? []
        : [{ ...base, measure: 'mean review (1–5) ÷ 5', value: figures.review.overall / 5 }]),
      ...(figures.ranShare === null
        ? []
        : [{ ...base, measure: 'ideas whose experiment ran', value: figures.ranShare }]),
      ...(figures.improvedShare === null
        ? []
        : [
            {
              ...base,
              measure: 'ideas that beat the baseline',
              value: figures.improvedShare,
            },
          ]),
    ];
  });
  charts.push({
    kind: 'chart',
    caption:
      "Explorations: each run's mean review score and the shares of its ideas whose experiment ran and beat the baseline (click a point for its run).",
    svg: await renderChart({
      data: { values },
      mark: { type: 'point', filled: true, size: 70 },
      width: 480,
      encoding: {
        y: { field: 'row', type: 'nominal', title: null, sort: null, axis: { labelLimit: 360 } },
        x: { field: 'value', type: 'quantitative', scale: { domain: [0, 1] }, title: 'share' },
        color: { field: 'measure', type: 'nominal', title: null },
        shape: { field: 'measure', type: 'nominal', title: null },
        href: { field: 'href' },
        tooltip: [{ field: 'run' }, { field: 'measure' }, { field: 'value' }],
      },
    }),
  });
  return charts;
}
