import { axisTicks } from '../model/axis-ticks.js';
import { formatNumber } from '../model/format-number.js';
import type { MetricPoint } from '../model/run-steps.js';

export interface MetricChartProps {
  name: string;
  points: MetricPoint[];
  starter?: number;
  goal?: 'max' | 'min';
}

const width = 560;
const height = 180;
const pad = { left: 56, right: 16, top: 14, bottom: 28 };

/** Where an execution and a value land in the chart: the value range padded when flat. */
function chartScale(points: MetricPoint[], starter: number | undefined) {
  const values = points.map((point) => point.value).concat(starter === undefined ? [] : [starter]);
  let low = Math.min(...values);
  let high = Math.max(...values);
  if (high === low) {
    low -= Math.abs(low) * 0.05 + 0.01;
    high += Math.abs(high) * 0.05 + 0.01;
  }
  const count = Math.max(...points.map((point) => point.execution));
  const x = (execution: number) =>
    pad.left + (count <= 1 ? 0.5 : (execution - 1) / (count - 1)) * (width - pad.left - pad.right);
  const y = (value: number) =>
    pad.top + (1 - (value - low) / (high - low)) * (height - pad.top - pad.bottom);
  return { low, high, count, x, y };
}

/** The axes, the value range's two ends and the execution numbers. */
function Axes({ scale }: { scale: ReturnType<typeof chartScale> }) {
  const { low, high, count, x, y } = scale;
  return (
    <>
      <line x1={pad.left} x2={pad.left} y1={pad.top} y2={height - pad.bottom} className="axis" />
      <line
        x1={pad.left}
        x2={width - pad.right}
        y1={height - pad.bottom}
        y2={height - pad.bottom}
        className="axis"
      />
      {[high, low].map((value) => (
        <text
          key={value}
          x={pad.left - 6}
          y={y(value)}
          className="tick"
          textAnchor="end"
          dominantBaseline="middle"
        >
          {value.toPrecision(4)}
        </text>
      ))}
      {axisTicks(count).map((tick) => (
        <text
          key={tick}
          x={x(tick)}
          y={height - pad.bottom + 16}
          className="tick execution-tick"
          textAnchor="middle"
        >
          {tick}
        </text>
      ))}
    </>
  );
}

/** The metric of each execution as a line, the starter's value as a dashed line across. */
export function MetricChart({ name, points, starter, goal }: MetricChartProps) {
  if (points.length === 0) return <p className="muted">No execution has printed {name} yet.</p>;
  const scale = chartScale(points, starter);
  const { x, y } = scale;
  // Many executions: smaller dots, and only round execution numbers labelled.
  const radius = points.length > 60 ? 2 : 4;
  const path = points
    .map((point, index) => `${index === 0 ? 'M' : 'L'}${x(point.execution)},${y(point.value)}`)
    .join(' ');
  return (
    <figure className="metric-chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`${name} per execution`}>
        <Axes scale={scale} />
        {starter !== undefined ? (
          <g className="starter-line">
            <line x1={pad.left} x2={width - pad.right} y1={y(starter)} y2={y(starter)} />
            <text x={width - pad.right} y={y(starter) - 4} textAnchor="end">
              starter {formatNumber(starter)}
            </text>
          </g>
        ) : null}
        <path d={path} className="metric-line" />
        {points.map((point) => (
          <circle
            key={point.execution}
            cx={x(point.execution)}
            cy={y(point.value)}
            r={radius}
            className="metric-point"
          >
            <title>{`execution ${point.execution} (${point.script}): ${point.value}`}</title>
          </circle>
        ))}
      </svg>
      <figcaption>
        {name} per script execution
        {goal !== undefined ? ` (${goal === 'max' ? 'higher' : 'lower'} is better)` : ''}
        {starter !== undefined ? '; dashed: the starter code' : ''}
      </figcaption>
    </figure>
  );
}
