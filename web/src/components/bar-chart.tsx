export interface BarRow {
  label: string;
  value: number | null;
  /** Drawn as a dark tick across the bar: a baseline, a starter, a noise margin. */
  reference?: number | null;
  /** Shown at the end of the bar instead of the bare value. */
  text?: string;
}

const rowHeight = 26;
const labelWidth = 240;
const barWidth = 360;
const textWidth = 170;

/** Horizontal bars on one scale from 0 (or the lowest value, when one is negative) to `max` or the highest. */
export function BarChart({
  title,
  rows,
  referenceLabel,
  max,
}: {
  title: string;
  rows: BarRow[];
  referenceLabel?: string;
  /** The scale's end when the measure has one (5 for a 1–5 score, 100 for percent). */
  max?: number;
}) {
  const numbers = rows.flatMap((row) => [row.value, row.reference ?? null]);
  const known = numbers.filter(
    (value): value is number => value !== null && Number.isFinite(value),
  );
  if (known.length === 0) return null;
  const low = Math.min(0, ...known);
  const high = Math.max(...known, max ?? low + 1e-9);
  const x = (value: number) => labelWidth + ((value - low) / (high - low)) * barWidth;
  const height = rows.length * rowHeight + 8;
  return (
    <figure className="bar-chart">
      <figcaption>
        {title}
        {referenceLabel !== undefined ? (
          <span className="muted"> · the tick marks {referenceLabel}</span>
        ) : null}
      </figcaption>
      <svg
        viewBox={`0 0 ${labelWidth + barWidth + textWidth} ${height}`}
        role="img"
        aria-label={title}
      >
        {rows.map((row, index) => {
          const top = index * rowHeight + 4;
          return (
            <g key={`${row.label}-${index}`} className="bar-row" data-label={row.label}>
              <text x={labelWidth - 8} y={top + rowHeight / 2} textAnchor="end" className="tick">
                {row.label.length > 34 ? `${row.label.slice(0, 33)}…` : row.label}
              </text>
              {row.value !== null ? (
                <rect
                  x={Math.min(x(0), x(row.value))}
                  y={top + 4}
                  width={Math.max(1, Math.abs(x(row.value) - x(0)))}
                  height={rowHeight - 10}
                  className="bar"
                />
              ) : null}
              {row.reference !== undefined && row.reference !== null ? (
                <line
                  x1={x(row.reference)}
                  x2={x(row.reference)}
                  y1={top + 1}
                  y2={top + rowHeight - 3}
                  className="bar-reference"
                />
              ) : null}
              <text
                x={labelWidth + barWidth + 8}
                y={top + rowHeight / 2}
                className="tick"
                dominantBaseline="middle"
              >
                {row.text ?? (row.value === null ? '–' : String(row.value))}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
