/**
 * Numbers as the pages show them: four significant digits (`0.6235`, `1234`, `0.0001235`),
 * so float noise such as 0.333333333 or 0.30000000000000004 never reaches the screen.
 */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value)) return String(value);
  return String(Number(value.toPrecision(4)));
}

/** A signed difference: `+0.3333`, `−0.037` (a real minus sign), `±0`. */
export function formatSigned(value: number): string {
  if (value === 0) return '±0';
  const shown = formatNumber(Math.abs(value));
  return value > 0 ? `+${shown}` : `−${shown}`;
}

/** `1 step`, `2 steps`. */
export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : nouns}`;
}
