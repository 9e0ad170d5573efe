/**
 * Where to label an axis of executions 1…count: at most `most` labels, at a round step (1, 2,
 * 5, 10, 20, 50, …), starting at 1 and keeping the last one when it is not too near the
 * step before it; so labels never run into each other however many executions there are.
 */
export function axisTicks(count: number, most = 8): number[] {
  if (count <= 0) return [];
  let step = 1;
  for (let scale = 1; ; scale *= 10) {
    const fitting = [1, 2, 5]
      .map((factor) => factor * scale)
      .find((candidate) => Math.ceil(count / candidate) <= most);
    if (fitting !== undefined) {
      step = fitting;
      break;
    }
  }
  const ticks = [1];
  for (let tick = step; tick <= count; tick += step) if (tick > 1) ticks.push(tick);
  const last = ticks.at(-1) ?? 1;
  if (last !== count && count - last >= step / 2) ticks.push(count);
  return ticks;
}
