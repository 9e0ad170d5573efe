import { relative } from 'node:path';
import type { Spread } from '../collection/spread.js';

/** A number with as many decimals as it needs, at most `digits`. */
export function formatNumber(value: number, digits = 4): string {
  return Number.isInteger(value) ? String(value) : String(Number(value.toFixed(digits)));
}

/** `mean ± std` (or the single value), `–` when nothing was measured. */
export function formatSpread(spread: Spread, scale = 1, digits = 4): string {
  if (spread.mean === null) return '–';
  const mean = formatNumber(spread.mean * scale, digits);
  return spread.std === null ? mean : `${mean} ± ${formatNumber(spread.std * scale, digits)}`;
}

export const formatPercent = (value: number): string => `${formatNumber(value, 1)} %`;

export function formatSeconds(spread: Spread): string {
  return spread.mean === null ? '–' : `${formatSpread(spread, 1 / 1000, 1)} s`;
}

/** A run folder as a link relative to the evaluation folder, where the reports are. */
export const runLink = (evalDir: string, runDir: string): string =>
  relative(evalDir, runDir).split('\\').join('/');
